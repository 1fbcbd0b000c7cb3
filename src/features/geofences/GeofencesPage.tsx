/**
 * Cercas eletrônicas (`/fleet-management/geofences`): the customer's geofences listed beside
 * the map, read from the device's mirror (so they show offline too), drawn in their colours.
 * Choosing one frames it and opens its panel: edit its vertices or radius, move it, change
 * name, colour and speed limit, associate vehicles. 'Nova cerca' draws a polygon or a circle.
 * Writes need the network; people who may only read see the same page without the tools.
 */
import { useMemo, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { createGeofence, removeGeofence, updateGeofence } from '../../api/geofences';
import { flattenIssues, type Geofence, GeofenceCreateSchema, type Geometry } from '../../contract';
import { useMirroredGeofences } from '../../db/geofences';
import { useLocationsOnce } from '../../db/useLiveLocations';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useMapConfig } from '../../hooks/useMapConfig';
import { PHONE, useMediaQuery } from '../../hooks/useMediaQuery';
import { useOnline } from '../../hooks/useOnline';
import { t } from '../../i18n/pt-BR';
import { destination, type Position } from '../../lib/geo';
import { foldText } from '../../lib/text';
import { BaseTiles } from '../../map/BaseTiles';
import { FitOnce } from '../../map/FitOnce';
import { type EditorMode, GeofenceEditor } from '../../map/GeofenceEditor';
import { GeofenceLayer } from '../../map/GeofenceLayer';
import { describeGeometry } from '../../map/geofence-shapes';
import { MapView } from '../../map/MapView';
import { type Marker, MarkersLayer } from '../../map/MarkersLayer';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { MirrorState } from '../../ui/feedback/MirrorState';
import { toast } from '../../ui/feedback/toasts';
import { SearchInput } from '../../ui/SearchInput';
import { EmptyState } from '../../ui/States';
import { AssociationsPanel } from './AssociationsPanel';
import { emptyDraft, type GeofenceDraft, GeofenceForm } from './GeofenceForm';
import { VisitsPanel } from './VisitsPanel';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../map/MapView.css';
import './GeofencesPage.css';

/** Points that frame a geofence: its vertices, or its circle's four extremes. */
/** The dots of a fenceless customer's vehicles: one colour, their states are not the point. */
const FLEET_DOT = '#0b5cad';

function framePoints(geometry: Geometry): [number, number][] {
  if (geometry.type === 'Polygon') return (geometry.coordinates[0] ?? []).map(([x, y]) => [x, y]);
  const center = geometry.center as Position;
  return [0, 90, 180, 270].map((bearing) => destination(center, bearing, geometry.radius));
}

const fromGeofence = (g: Geofence): GeofenceDraft => ({
  name: g.name,
  description: g.description ?? '',
  color: g.color,
  speedLimit: g.speedLimit === null ? '' : String(g.speedLimit),
  geometry: g.geometry,
});

function payloadOf(draft: GeofenceDraft, clientId: string | null, editing: boolean) {
  const limit = draft.speedLimit.trim();
  return {
    clientId: clientId ?? undefined,
    name: draft.name,
    description: draft.description.trim() || (editing ? null : undefined),
    color: draft.color,
    speedLimit: limit === '' ? (editing ? null : undefined) : Number(limit.replace(',', '.')),
    geometry: draft.geometry ?? undefined,
  };
}

/** Field errors of a payload: the issues' first segment names the field (geometry for all of it). */
function errorsOf(payload: unknown): Record<string, string> | undefined {
  const result = GeofenceCreateSchema['~standard'].validate(payload);
  if (!('issues' in result) || !result.issues) return undefined;
  const errors: Record<string, string> = {};
  for (const issue of flattenIssues(result.issues as Parameters<typeof flattenIssues>[0])) {
    const field = issue.path.startsWith('geometry.radius')
      ? 'radius'
      : (issue.path.split('.')[0] ?? '');
    errors[field || 'geometry'] ??= issue.message;
  }
  return errors;
}

export function GeofencesPage() {
  const [clientId, setClientId] = useSelectedClient();
  const access = useAccess('/fleet-management/geofences');
  const online = useOnline();
  const phone = useMediaQuery(PHONE);
  const mirror = useMirroredGeofences(clientId);
  useErrorToast(mirror.error, t.geofences.fetchError);
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | 'new' | null>(null);
  const baseMap = useMapConfig();
  const [draft, setDraft] = useState<GeofenceDraft>(emptyDraft);
  const [mode, setMode] = useState<EditorMode>('idle');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [pending, setPending] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const geofences = mirror.rows ?? [];
  const shown = useMemo(() => {
    const q = foldText(search.trim());
    return q ? geofences.filter((g) => foldText(g.name).includes(q)) : geofences;
  }, [geofences, search]);
  // A customer without fences yet draws the first near its vehicles: the map shows their last
  // positions as dots and frames them (read once there are no fences, as the fences were read).
  const fenceless = mirror.rows?.length === 0 && mirror.syncedAt !== undefined;
  const fleet = useLocationsOnce(fenceless ? clientId : null);
  const fleetDots = useMemo(
    () =>
      (fleet ?? []).map(
        (v): Marker => ({
          id: v.id,
          latitude: v.latitude,
          longitude: v.longitude,
          color: FLEET_DOT,
          text: '',
        }),
      ),
    [fleet],
  );
  const framing = useMemo(
    () =>
      geofences.length
        ? geofences.flatMap((g) => framePoints(g.geometry))
        : fleetDots.map((v): [number, number] => [v.longitude, v.latitude]),
    [geofences, fleetDots],
  );
  const selected =
    selectedId && selectedId !== 'new' ? geofences.find((g) => g.id === selectedId) : undefined;

  const open = (id: string) => {
    const geofence = geofences.find((g) => g.id === id);
    if (!geofence) return;
    setSelectedId(id);
    setDraft(fromGeofence(geofence));
    setMode('idle');
    setErrors({});
  };
  const startNew = () => {
    setSelectedId('new');
    setDraft(emptyDraft());
    setMode(phone ? 'center-circle' : 'polygon');
    setErrors({});
  };
  const close = () => {
    setSelectedId(null);
    setMode('idle');
    setErrors({});
  };
  const change = (changes: Partial<GeofenceDraft>) => {
    setDraft((current) => ({ ...current, ...changes }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(changes)) next[key] = undefined;
      if (changes.geometry) next.radius = undefined;
      return next;
    });
  };

  async function save() {
    const creating = selectedId === 'new';
    const payload = payloadOf(draft, selected?.clientId ?? clientId, !creating);
    if (!draft.geometry) {
      setErrors({ geometry: t.geofences.noShape });
      return;
    }
    const problems = errorsOf(payload);
    if (problems) {
      setErrors(problems);
      return;
    }
    if (!requireOnline()) return;
    setPending(true);
    try {
      const saved = creating
        ? await createGeofence(payload)
        : await updateGeofence(selectedId ?? '', payload);
      toast.success(creating ? t.geofences.created : t.geofences.saved);
      await mirror.refresh();
      setSelectedId(saved.id);
      setDraft(fromGeofence(saved));
    } catch (err) {
      await toastError(t.geofences.saveError, err);
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    setConfirmRemove(false);
    if (!selected || !requireOnline()) return;
    try {
      await removeGeofence(selected.id);
      toast.success(t.geofences.removed);
      close();
      await mirror.refresh();
    } catch (err) {
      await toastError(t.geofences.removeError, err);
    }
  }

  const editing = selectedId !== null;
  return (
    <section className="page page-geofences" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.geofences.title}</h1>
        <MirrorState syncedAt={mirror.syncedAt} syncing={mirror.syncing} online={online} />
      </div>
      <div className="map-toolbar">
        <CustomerPicker
          value={clientId}
          onChange={(id) => {
            close();
            setClientId(id);
          }}
        />
        {access.write && (
          <Button onPress={startNew} isDisabled={!clientId}>
            {t.geofences.newOne}
          </Button>
        )}
      </div>
      <div className="geofence-layout">
        <div className="geofence-side">
          {editing ? (
            <>
              <GeofenceForm
                draft={draft}
                onChange={change}
                mode={mode}
                onMode={setMode}
                creating={selectedId === 'new'}
                writable={access.write}
                removable={access.remove}
                pending={pending}
                errors={errors}
                onSave={() => void save()}
                onCancel={close}
                onRemove={() => setConfirmRemove(true)}
              />
              {selected && (
                <>
                  <AssociationsPanel
                    geofenceId={selected.id}
                    clientId={selected.clientId}
                    writable={access.write}
                  />
                  {online && <VisitsPanel geofenceId={selected.id} />}
                </>
              )}
              {selectedId === 'new' && access.write && (
                <p className="muted">{t.geofences.saveFirst}</p>
              )}
            </>
          ) : (
            <>
              <SearchInput label={t.geofences.search} value={search} onChange={setSearch} />
              {mirror.rows && shown.length === 0 ? (
                // Never read on this device and no signal: whether there are any is not known.
                <EmptyState
                  title={!mirror.syncedAt && !online ? t.network.listOffline : t.geofences.empty}
                >
                  {fleetDots.length > 0 && <p>{t.geofences.fleetDots}</p>}
                </EmptyState>
              ) : (
                <ul className="geofence-list" aria-label={t.geofences.list}>
                  {shown.map((g) => (
                    <li key={g.id}>
                      <AriaButton className="geofence-item" onPress={() => open(g.id)}>
                        <span
                          className="geofence-swatch"
                          style={{ background: g.color }}
                          aria-hidden="true"
                        />
                        <span>
                          <strong>{g.name}</strong>
                          <span className="muted">
                            {describeGeometry(g.geometry)}
                            {g.speedLimit !== null ? ` · até ${g.speedLimit} km/h` : ''}
                          </span>
                        </span>
                      </AriaButton>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
        <MapView label={t.geofences.map} className="map geofence-map">
          <BaseTiles config={baseMap} />
          {/* The names are drawn across each fence's middle: room for them at the sides. */}
          <FitOnce
            key={clientId ?? ''}
            points={framing}
            maxZoom={16}
            padding={[72, 160, 72, 160]}
            tookOver={selectedId !== null || mode !== 'idle'}
          />
          {fleetDots.length > 0 && <MarkersLayer markers={fleetDots} />}
          <GeofenceLayer
            geofences={geofences}
            selectedId={selected?.id ?? null}
            hiddenId={access.write ? (selected?.id ?? null) : null}
            onSelect={editing ? undefined : open}
            fitTo={selected?.id ?? null}
          />
          {access.write && editing && (
            <GeofenceEditor
              geometry={draft.geometry}
              mode={mode}
              color={draft.color}
              onChange={(geometry) => change({ geometry })}
              onDrawn={(geometry) => {
                change({ geometry });
                setMode('idle');
              }}
            />
          )}
        </MapView>
      </div>
      <ConfirmDialog
        title={t.geofences.confirmRemove}
        confirmLabel={t.list.remove}
        isOpen={confirmRemove}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={() => void remove()}
        danger
      >
        <p>
          <strong>{selected?.name}</strong>: {t.geofences.confirmRemoveText}
        </p>
      </ConfirmDialog>
    </section>
  );
}
