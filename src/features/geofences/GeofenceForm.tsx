/**
 * The panel of one geofence (new or existing): how to draw it (polygon, circle, or a circle at
 * the map's centre for keyboard users), its name, description, colour, speed limit and, for a
 * circle, its radius in metres; save, cancel and remove. Drawing and editing happen on the
 * map (src/map/GeofenceEditor.tsx); this panel only holds the values.
 */
import type { FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { DEFAULT_GEOFENCE_COLOR, type Geometry } from '../../contract';
import { geofencesText } from '../../i18n/geofences';
import { t } from '../../i18n/pt-BR';
import type { EditorMode } from '../../map/GeofenceEditor';
import { describeGeometry } from '../../map/geofence-shapes';
import { Button } from '../../ui/Button';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../ui/FormActions.css';
import './GeofenceForm.css';

export interface GeofenceDraft {
  name: string;
  description: string;
  color: string;
  speedLimit: string;
  geometry: Geometry | null;
}

export const emptyDraft = (): GeofenceDraft => ({
  name: '',
  description: '',
  color: DEFAULT_GEOFENCE_COLOR,
  speedLimit: '',
  geometry: null,
});

/** 'círculo, raio de 90 m' (as the list writes it) opening a sentence. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function GeofenceForm({
  draft,
  onChange,
  mode,
  onMode,
  creating,
  writable,
  removable,
  pending,
  errors,
  onSave,
  onCancel,
  onRemove,
}: {
  draft: GeofenceDraft;
  onChange: (changes: Partial<GeofenceDraft>) => void;
  mode: EditorMode;
  onMode: (mode: EditorMode) => void;
  creating: boolean;
  writable: boolean;
  removable: boolean;
  pending: boolean;
  errors: Record<string, string | undefined>;
  onSave: () => void;
  onCancel: () => void;
  onRemove: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave();
  };
  const circle = draft.geometry?.type === 'Circle' ? draft.geometry : null;
  const drawing = mode === 'polygon' || mode === 'circle';
  return (
    <Form className="form geofence-form" onSubmit={submit} validationBehavior="aria">
      <h2>{creating ? geofencesText.newOne : draft.name || geofencesText.title}</h2>
      {writable && (
        <fieldset className="draw-tools">
          <legend className="visually-hidden">{geofencesText.shape}</legend>
          <Button
            variant={mode === 'polygon' ? 'primary' : 'secondary'}
            onPress={() => onMode(mode === 'polygon' ? 'idle' : 'polygon')}
          >
            {geofencesText.drawPolygon}
          </Button>
          <Button
            variant={mode === 'circle' ? 'primary' : 'secondary'}
            onPress={() => onMode(mode === 'circle' ? 'idle' : 'circle')}
          >
            {geofencesText.drawCircle}
          </Button>
          <Button variant="ghost" onPress={() => onMode('center-circle')}>
            {geofencesText.centerCircle}
          </Button>
        </fieldset>
      )}
      <p className="muted" role="status">
        {mode === 'polygon'
          ? geofencesText.drawingPolygon
          : mode === 'circle'
            ? geofencesText.drawingCircle
            : draft.geometry
              ? `${sentence(describeGeometry(draft.geometry))}. ${
                  writable
                    ? draft.geometry.type === 'Circle'
                      ? geofencesText.editHintCircle
                      : geofencesText.editHint
                    : ''
                }`
              : writable
                ? geofencesText.noShapeYet
                : ''}
      </p>
      {errors.geometry && <FormMessage kind="error">{errors.geometry}</FormMessage>}
      <fieldset className="form-fields" disabled={!writable || drawing}>
        <TextField
          label={geofencesText.name}
          value={draft.name}
          onChange={(name) => onChange({ name })}
          isRequired
          errorMessage={errors.name}
        />
        <TextField
          label={geofencesText.description}
          value={draft.description}
          onChange={(description) => onChange({ description })}
          errorMessage={errors.description}
        />
        <div className="color-field">
          <label htmlFor="geofence-color">{geofencesText.color}</label>
          <input
            id="geofence-color"
            type="color"
            className="color-input"
            value={draft.color.toLowerCase()}
            onChange={(event) => onChange({ color: event.target.value.toUpperCase() })}
          />
          <span aria-hidden="true">{draft.color}</span>
        </div>
        <TextField
          label={geofencesText.speedLimit}
          value={draft.speedLimit}
          onChange={(speedLimit) => onChange({ speedLimit })}
          inputMode="numeric"
          description={geofencesText.speedLimitHint}
          errorMessage={errors.speedLimit}
        />
        {circle && (
          <TextField
            label={geofencesText.radius}
            value={String(Math.round(circle.radius))}
            inputMode="numeric"
            errorMessage={errors.radius}
            onChange={(text) => {
              const radius = Number(text);
              if (Number.isFinite(radius) && radius > 0)
                onChange({ geometry: { ...circle, radius } });
            }}
          />
        )}
      </fieldset>
      <div className="form-actions">
        {drawing ? (
          <Button variant="secondary" onPress={() => onMode('idle')}>
            {geofencesText.cancelDrawing}
          </Button>
        ) : (
          // In the order of the other forms: leave, then save (the removal apart, first).
          <>
            {removable && !creating && (
              <Button variant="danger" onPress={onRemove}>
                {geofencesText.remove}
              </Button>
            )}
            <Button variant="ghost" onPress={onCancel}>
              {t.list.cancel}
            </Button>
            {writable && (
              <Button type="submit" isDisabled={pending}>
                {pending ? t.list.saving : geofencesText.save}
              </Button>
            )}
          </>
        )}
      </div>
    </Form>
  );
}
