/**
 * The end of every edit form: the error summary of a failed save, Cancel (back to the list)
 * and Save. It sticks to the bottom of the screen, so on a phone the summary and the button
 * stay in view however far the first invalid field is. Read-only forms only lead back.
 */
import { Link } from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import { Button } from './Button';
import { FormMessage } from './States';
import './Button.css';
import './FormActions.css';

export function FormActions({
  back,
  pending,
  isDisabled,
  error,
  readOnly = false,
}: {
  back: string;
  pending: boolean;
  isDisabled?: boolean;
  /** Why the last save failed. */
  error?: string | undefined;
  readOnly?: boolean;
}) {
  return (
    <div className="form-actions form-actions-sticky">
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <div className="form-actions-buttons">
        <Link href={back} className="btn btn-ghost">
          {readOnly ? t.list.back : t.list.cancel}
        </Link>
        {!readOnly && (
          <Button type="submit" isPending={pending} isDisabled={isDisabled}>
            {pending ? t.list.saving : t.list.save}
          </Button>
        )}
      </div>
    </div>
  );
}
