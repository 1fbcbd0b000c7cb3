import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import './Button.css';

export interface ButtonProps extends AriaButtonProps {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
}

/** The one button: react-aria handles press, focus ring and disabled/pending states. */
export function Button({ variant = 'primary', className, ...props }: ButtonProps) {
  return (
    <AriaButton
      {...props}
      className={(state) =>
        ['btn', `btn-${variant}`, typeof className === 'function' ? className(state) : className]
          .filter(Boolean)
          .join(' ')
      }
    />
  );
}
