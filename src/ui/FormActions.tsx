import { Link } from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import { Button } from './Button';

/** Cancel (back to the list) and Save, at the end of every edit form. */
export function FormActions({
  back,
  pending,
  isDisabled,
}: {
  back: string;
  pending: boolean;
  isDisabled?: boolean;
}) {
  return (
    <div className="form-actions">
      <Link href={back} className="btn btn-ghost">
        {t.list.cancel}
      </Link>
      <Button type="submit" isPending={pending} isDisabled={isDisabled}>
        {pending ? t.list.saving : t.list.save}
      </Button>
    </div>
  );
}
