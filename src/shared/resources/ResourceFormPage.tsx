/**
 * The create/edit screen of any inventory resource, built from its field declarations. For
 * someone who may only read the resource it is the record's page: the same fields, read-only,
 * and the panels below (photos, commands) with only the actions they may take.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useRecordForm } from '../../hooks/useRecordForm';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { CheckList } from '../../ui/CheckList';
import { Switch } from '../../ui/Choice';
import { FormActions } from '../../ui/FormActions';
import { toast } from '../../ui/feedback/toasts';
import { type Choices, emptyText, Select, type SelectOption } from '../../ui/Select';
import { Loading, OfflineRecord } from '../../ui/States';
import { PasswordField, TextField } from '../../ui/TextField';
import { useAccess } from '../areas/useAccess';
import { CustomerPicker } from '../customers/CustomerPicker';
import { useSelectedClient } from '../customers/useCustomers';
import type { FieldDef, ResourceConfig } from './resource';
import '../../ui/Choice.css';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../ui/feedback/MirrorState.css';
import './ResourceFormPage.css';

function Field<V extends Record<string, unknown>>({
  field,
  value,
  onChange,
  error,
  choices,
}: {
  field: FieldDef<V>;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string | undefined;
  choices: Choices;
}) {
  const { options } = choices;
  switch (field.kind ?? 'text') {
    case 'switch':
      return (
        // One name whatever the state (what 'on' means); the state is the switch's own.
        <Switch isSelected={Boolean(value)} onChange={onChange}>
          {field.switchLabel ?? t.list.active}
        </Switch>
      );
    case 'customer':
      return (
        <CustomerPicker
          label={field.label}
          value={(value as string | null) ?? null}
          onChange={onChange}
          errorMessage={error}
          isRequired
        />
      );
    case 'select':
      return (
        <Select
          label={field.label}
          value={(value as string) || null}
          onChange={onChange}
          options={options}
          isLoading={choices.loading}
          isUnavailable={choices.unavailable}
          errorMessage={error}
          isRequired={field.required}
          description={field.description}
        />
      );
    case 'checkboxes':
      return (
        <CheckList
          label={field.label}
          noun={field.noun}
          options={choices.loading || choices.unavailable ? [] : options}
          {...(choices.loading || choices.unavailable
            ? { emptyText: emptyText(choices.loading, choices.unavailable) }
            : {})}
          value={(value as string[]) ?? []}
          onChange={onChange}
        />
      );
    default:
      if (field.type === 'password')
        return (
          <PasswordField
            label={field.label}
            value={String(value ?? '')}
            onChange={onChange}
            errorMessage={error}
            description={field.description}
            // A device's secret, never the user's own sign-in password.
            autoComplete="new-password"
          />
        );
      return (
        <TextField
          label={field.label}
          type={field.type}
          value={String(value ?? '')}
          onChange={(next) => onChange(field.mask ? field.mask(next) : next)}
          errorMessage={error}
          isRequired={field.required}
          description={field.description}
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
        />
      );
  }
}

/** A field's warning for these values, shown as its description (and read with the field). */
function warningOf<V extends Record<string, unknown>>(field: FieldDef<V>, values: V) {
  const warning = field.warningOf?.(values);
  return warning ? <span className="field-warning">{warning}</span> : undefined;
}

export function ResourceFormPage<T extends { id: string }, P, V extends Record<string, unknown>>({
  config,
}: {
  config: ResourceConfig<T, P, V>;
}) {
  const { id } = useParams();
  const creating = !id;
  const navigate = useNavigate();
  const [clientId] = useSelectedClient();
  const readOnly = !useAccess(config.basePath).write;
  const invalidate = useInvalidate();
  const loaded = useQuery({
    queryKey: keys.resourceItem(config.api.path, id ?? ''),
    queryFn: () => config.api.get(id ?? ''),
    enabled: Boolean(id),
  });
  const reload = () => void invalidate(keys.resource(config.api.path));
  const [address] = useSearchParams();
  const form = useRecordForm<V>({
    ...config.empty(clientId),
    ...(creating ? config.prefill?.(address) : undefined),
  });
  const { values, setValues, errors } = form;
  const dynamic: Partial<Record<string, SelectOption[] | Choices>> =
    config.useOptions?.(values) ?? {};
  // A field's declared options, or what useOptions looked up for it, as Choices.
  const choicesFor = (key: string, fixed: SelectOption[] | undefined): Choices => {
    const given = fixed ?? dynamic[key] ?? [];
    return Array.isArray(given) ? { options: given, loading: false, unavailable: false } : given;
  };

  // Without signal a mirrored record is shown as this device keeps it (read only: saving needs
  // the server); any other waits for the connection, and says so.
  const kept = config.mirror?.useItem(id);
  const offline = !creating && isUnavailable(loaded);
  const item = loaded.data ?? (offline ? (kept ?? undefined) : undefined);
  const fromDevice = !loaded.data && item !== undefined;

  useEffect(() => {
    if (item) setValues(config.fromItem(item));
  }, [item, setValues, config]);
  useErrorToast(loaded.error, config.messages.fetchError);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const payload = config.toPayload(values, false);
    const problems = config.problems?.(values);
    if (!form.check(config.schema, payload, config.fieldOf, problems)) return;
    await form.submit(
      config.messages.saveError,
      async () => {
        if (creating) {
          const created = await config.api.create(config.toPayload(values, false));
          toast.success(config.messages.created);
          await invalidate(keys.resource(config.api.path));
          // Pending until the record's page shows (its route waits for its code first).
          await navigate(`${config.basePath}/${created.id}`, { replace: true });
        } else {
          await config.api.update(id, config.toPayload(values, true));
          toast.success(config.messages.saved);
          await invalidate(keys.resource(config.api.path));
        }
      },
      config.fieldOf,
    );
  }

  if (offline && !item && (kept === null || !config.mirror))
    return <OfflineRecord title={config.title} back={config.basePath} />;
  if (!creating && loaded.isPending && !item) return <Loading label={t.list.loading} />;
  const name = item ? config.nameOf(item) : '';
  const locked = readOnly || fromDevice;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">
          {creating ? config.newTitle : locked ? name : `${t.list.edit}: ${name}`}
        </h1>
      </div>
      {fromDevice ? (
        <p className="mirror-state mirror-offline" role="status">
          {t.list.fromDevice}
        </p>
      ) : (
        readOnly && <p className="muted">{t.list.readOnly}</p>
      )}
      <Form ref={form.formRef} className="form form-grid" onSubmit={save} validationBehavior="aria">
        {!locked &&
          config.tools?.(values, (changes) => setValues((current) => ({ ...current, ...changes })))}
        <fieldset className="form-fields" disabled={locked}>
          {config.fields
            .filter((field) => creating || !field.createOnly)
            .filter((field) => !field.shownWhen || field.shownWhen(values))
            .map((field) => {
              const input = (
                <Field
                  key={field.key}
                  field={{
                    ...field,
                    label: field.labelOf?.(values) ?? field.label,
                    description: warningOf(field, values) ?? field.description,
                  }}
                  value={values[field.key]}
                  onChange={(next) => form.set(field.key)(next as V[typeof field.key])}
                  error={errors[field.key]}
                  choices={choicesFor(field.key, field.options)}
                />
              );
              const { action } = field;
              if (!action || locked) return input;
              return (
                <div key={field.key} className="field-with-action">
                  {input}
                  <Button
                    variant="secondary"
                    onPress={() =>
                      setValues((current) => ({ ...current, ...action.fill(current) }))
                    }
                  >
                    {action.label}
                  </Button>
                </div>
              );
            })}
        </fieldset>
        <FormActions
          back={config.basePath}
          pending={form.pending}
          error={form.formError}
          readOnly={locked}
        />
      </Form>
      {config.aside?.(values, item)}
      {!creating && loaded.data && config.extra?.(loaded.data, reload)}
    </section>
  );
}
