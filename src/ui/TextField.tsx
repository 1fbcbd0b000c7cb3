import { type ReactNode, useState } from 'react';
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  FieldError,
  Input,
  Label,
  Text,
} from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import { Button } from './Button';
import { EyeIcon, EyeOffIcon } from './icons';
import './TextField.css';

export interface TextFieldProps extends AriaTextFieldProps {
  label: string;
  description?: ReactNode;
  errorMessage?: string | undefined;
  placeholder?: string;
}

/** Labelled text input with description and error, wired for screen readers. */
export function TextField({
  label,
  description,
  errorMessage,
  placeholder,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      // Left uncontrolled without an error of ours: a controlled `false` would hide the
      // field's own checks (`validate`, required) that a submit shows.
      isInvalid={props.isInvalid ?? (errorMessage ? true : undefined)}
      className="field"
    >
      <Label>{label}</Label>
      <Input placeholder={placeholder} />
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
    </AriaTextField>
  );
}

/** Password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  const { label, description, errorMessage, placeholder, ...rest } = props;
  return (
    <AriaTextField
      {...rest}
      type={visible ? 'text' : 'password'}
      isInvalid={rest.isInvalid ?? (errorMessage ? true : undefined)}
      className="field"
    >
      <Label>{label}</Label>
      <div className="input-with-action">
        <Input placeholder={placeholder} />
        <Button
          variant="ghost"
          className="input-action"
          aria-label={visible ? t.login.hidePassword : t.login.showPassword}
          aria-pressed={visible}
          onPress={() => setVisible((value) => !value)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
      </div>
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
    </AriaTextField>
  );
}
