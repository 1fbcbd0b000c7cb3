/**
 * The vehicles under a geofence's rule kinds (SPEC §3): always inside, always outside, inside
 * or outside during an interval (weekdays and hours in São Paulo time; an end before the start
 * crosses midnight). Listing needs the network (associations are not mirrored); adding one
 * for a vehicle already associated replaces its rule.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { associate, associationsOf, dissociate } from '../../api/geofences';
import { keys } from '../../api/keys';
import {
  RESTRICTION_LABELS,
  RESTRICTION_TYPES,
  type RestrictionType,
  vehicleOption,
} from '../../contract';
import { useMirroredVehicles } from '../../db/hooks';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { geofencesText } from '../../i18n/geofences';
import { t } from '../../i18n/pt-BR';
import { WEEKDAY_LABELS } from '../../lib/schedule';
import { useClientScope } from '../../shared/customers/useCustomers';
import { VehiclePicker } from '../../shared/vehicles/VehiclePicker';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import '../../ui/CheckList.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './AssociationsPanel.css';

const weekdaysText = (days: number[]) =>
  days.length === 7
    ? t.screens.associationsPanel.todosOsDias
    : days.map((d) => WEEKDAY_LABELS[d]).join(', ');

export function AssociationsPanel({
  geofenceId,
  clientId,
  writable,
}: {
  geofenceId: string;
  clientId: string | null;
  writable: boolean;
}) {
  // The associated vehicles' names from the device's mirror (the picker asks the server).
  const clientScope = useClientScope(clientId);
  const mirrored = useMirroredVehicles(clientId, clientScope);
  const invalidate = useInvalidate();
  const list = useQuery({
    queryKey: keys.associations(geofenceId),
    queryFn: () => associationsOf(geofenceId),
  });
  useErrorToast(list.error, geofencesText.fetchError);
  const [vehicleId, setVehicleId] = useState<string | null>(null);
  const [kind, setKind] = useState<RestrictionType>('ALWAYS_INSIDE');
  const [startTime, setStartTime] = useState('22:00');
  const [endTime, setEndTime] = useState('06:00');
  const [weekdays, setWeekdays] = useState<string[]>(['0', '1', '2', '3', '4', '5', '6']);
  const interval = kind.endsWith('_INTERVAL');

  const add = useMutation({
    mutationFn: () =>
      associate({
        geofenceId,
        vehicleAssociations: [
          {
            vehicleId,
            restrictionType: kind,
            ...(interval ? { startTime, endTime, weekdays: weekdays.map(Number) } : {}),
          },
        ],
      }),
    onSuccess: async () => {
      toast.success(geofencesText.associated);
      setVehicleId(null);
      await invalidate(keys.associations(geofenceId));
    },
    onError: (err) => void toastError(geofencesText.associationError, err),
  });
  const remove = useMutation({
    mutationFn: dissociate,
    onSuccess: async () => {
      toast.success(geofencesText.dissociated);
      await invalidate(keys.associations(geofenceId));
    },
    onError: (err) => void toastError(geofencesText.associationError, err),
  });
  const vehicleLabel = (id: string) => {
    const vehicle = mirrored.rows?.find((v) => v.id === id);
    return vehicle ? vehicleOption(vehicle).label : t.screens.associationsPanel.veiculo;
  };
  const associated = new Set((list.data ?? []).map((a) => a.vehicleId));

  return (
    <section className="associations" aria-labelledby="associations-title">
      <h2 id="associations-title">{geofencesText.associations}</h2>
      {list.data?.length === 0 && <p className="muted">{geofencesText.noAssociations}</p>}
      <ul className="association-list">
        {(list.data ?? []).map((a) => (
          <li key={a.id}>
            <span>
              <strong>{vehicleLabel(a.vehicleId)}</strong>
              <br />
              {RESTRICTION_LABELS[a.restrictionType]}
              {a.startTime && a.endTime
                ? `, ${geofencesText.interval(a.startTime, a.endTime)} (${weekdaysText(a.weekdays)})`
                : `, ${geofencesText.always}`}
            </span>
            {writable && (
              <Button
                variant="ghost"
                aria-label={`${geofencesText.dissociate}: ${vehicleLabel(a.vehicleId)}`}
                isDisabled={remove.isPending}
                onPress={() => requireOnline() && remove.mutate(a.id)}
              >
                {t.list.remove}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {writable && (
        <div className="form association-form">
          <VehiclePicker
            clientId={clientId}
            label={geofencesText.vehicle}
            value={vehicleId}
            onChange={setVehicleId}
            exclude={associated}
          />
          <Select
            label={geofencesText.kind}
            value={kind}
            onChange={(value) => setKind(value as RestrictionType)}
            options={RESTRICTION_TYPES.map((value) => ({
              label: RESTRICTION_LABELS[value],
              value,
            }))}
          />
          {interval && (
            <>
              <div className="time-pair">
                <TextField
                  label={geofencesText.start}
                  type="time"
                  value={startTime}
                  onChange={setStartTime}
                />
                <TextField
                  label={geofencesText.end}
                  type="time"
                  value={endTime}
                  onChange={setEndTime}
                />
              </div>
              <CheckboxGroup
                className="checkbox-group weekday-group"
                value={weekdays}
                onChange={setWeekdays}
              >
                <Label>{geofencesText.weekdays}</Label>
                {WEEKDAY_LABELS.map((label, i) => (
                  <Checkbox key={label} value={String(i)} className="checkbox">
                    <span className="checkbox-box" aria-hidden="true" />
                    {label}
                  </Checkbox>
                ))}
              </CheckboxGroup>
            </>
          )}
          <Button
            isDisabled={!vehicleId || add.isPending}
            onPress={() => requireOnline() && add.mutate()}
          >
            {geofencesText.associate}
          </Button>
        </div>
      )}
    </section>
  );
}
