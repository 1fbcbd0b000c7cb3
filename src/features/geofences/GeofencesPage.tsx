/**
 * Cercas eletrônicas (`/fleet-management/geofences`): the customer's geofences listed beside
 * the map, read from the device's mirror (so they show offline too), drawn in their colours.
 * Choosing one frames it and opens its panel: edit its vertices or radius, move it, change
 * name, colour and speed limit, associate vehicles. 'Nova cerca' draws a polygon or a circle.
 * Writes need the network; people who may only read see the same page without the tools.
 */
import { useMemo, useState } from 'react';
import { useMirroredGeofences } from '../../db/geofences';
import { useLocationsOnce } from '../../db/useLiveLocations';
import { useErrorToast } from '../../hooks/feedback';
import { PHONE, useMediaQuery } from '../../hooks/useMediaQuery';
import { useOnline } from '../../hooks/useOnline';
import { geofencesText } from '../../i18n/geofences';
import { t } from '../../i18n/pt-BR';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { MirrorState } from '../../ui/feedback/MirrorState';
import { AssociationsPanel } from './AssociationsPanel';
import { GeofenceForm } from './GeofenceForm';
import { GeofenceList } from './GeofenceList';
import { fleetMarkers, GeofenceMap } from './GeofenceMap';
import { useGeofenceEditor } from './useGeofenceEditor';
import { VisitsPanel } from './VisitsPanel';
import '../../ui/page.css';
import '../../ui/text.css';
import './GeofencesPage.css';

export function GeofencesPage() {
  const [clientId, setClientId] = useSelectedClient();
  const access = useAccess('/fleet-management/geofences');
  const online = useOnline();
  const phone = useMediaQuery(PHONE);
  const mirror = useMirroredGeofences(clientId);
  useErrorToast(mirror.error, geofencesText.fetchError);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [search, setSearch] = useState('');
  const geofences = mirror.rows ?? [];
  const editor = useGeofenceEditor(clientId, geofences, mirror.refresh);
  const { selected, selectedId, editing } = editor;
  // A customer without fences yet draws the first near its vehicles: the map shows their last
  // positions as dots and frames them (read once there are no fences, as the fences were read).
  const fenceless = mirror.rows?.length === 0 && mirror.syncedAt !== undefined;
  const fleet = useLocationsOnce(fenceless ? clientId : null);
  const fleetDots = useMemo(() => fleetMarkers(fleet), [fleet]);

  return (
    <section className="page page-geofences" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{geofencesText.title}</h1>
        <MirrorState syncedAt={mirror.syncedAt} syncing={mirror.syncing} online={online} />
      </div>
      <div className="map-toolbar">
        <CustomerPicker
          value={clientId}
          onChange={(id) => {
            editor.close();
            setClientId(id);
          }}
        />
        {access.write && (
          <Button
            onPress={() => editor.startNew(phone ? 'center-circle' : 'polygon')}
            isDisabled={!clientId}
          >
            {geofencesText.newOne}
          </Button>
        )}
      </div>
      <div className="geofence-layout">
        <div className="geofence-side">
          {editing ? (
            <>
              <GeofenceForm
                draft={editor.draft}
                onChange={editor.change}
                mode={editor.mode}
                onMode={editor.setMode}
                creating={selectedId === 'new'}
                writable={access.write}
                removable={access.remove}
                pending={editor.pending}
                errors={editor.errors}
                onSave={() => void editor.save()}
                onCancel={editor.close}
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
                <p className="muted">{geofencesText.saveFirst}</p>
              )}
            </>
          ) : (
            <GeofenceList
              geofences={geofences}
              read={mirror.rows !== undefined}
              // Never read on this device and no signal: whether there are any is not known.
              emptyTitle={!mirror.syncedAt && !online ? t.network.listOffline : geofencesText.empty}
              fleetShown={fleetDots.length > 0}
              onOpen={editor.open}
              search={search}
              onSearch={setSearch}
            />
          )}
        </div>
        <GeofenceMap
          clientId={clientId}
          geofences={geofences}
          fleetDots={fleetDots}
          selectedId={selected?.id ?? null}
          editable={access.write}
          editor={{
            open: editing,
            geometry: editor.draft.geometry,
            mode: editor.mode,
            color: editor.draft.color,
            onOpen: editor.open,
            onChange: (geometry) => editor.change({ geometry }),
            onDrawn: editor.drawn,
          }}
        />
      </div>
      <ConfirmDialog
        title={geofencesText.confirmRemove}
        confirmLabel={t.list.remove}
        isOpen={confirmRemove}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={() => {
          setConfirmRemove(false);
          void editor.remove();
        }}
        danger
      >
        <p>
          <strong>{selected?.name}</strong>: {geofencesText.confirmRemoveText}
        </p>
      </ConfirmDialog>
    </section>
  );
}
