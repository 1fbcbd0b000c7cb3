/**
 * The geofence editor's state machine: which fence is open (none, a new one, or one of the
 * list), its draft, the drawing mode, the field errors and whether a save is under way — one
 * reducer, so that opening, drawing, saving and closing move all of them together (a fence
 * opened never keeps the previous one's errors or drawing mode). Saving and removing check
 * the draft with the contract's schema, need the network, and resync the mirror after.
 */
import { useReducer } from 'react';
import { createGeofence, removeGeofence, updateGeofence } from '../../api/geofences';
import { flattenIssues, type Geofence, GeofenceCreateSchema } from '../../contract';
import { requireOnline, toastError } from '../../hooks/feedback';
import { geofencesText } from '../../i18n/geofences';
import type { EditorMode } from '../../map/GeofenceEditor';
import { toast } from '../../ui/feedback/toasts';
import { emptyDraft, type GeofenceDraft } from './GeofenceForm';

type Errors = Record<string, string | undefined>;

export interface EditorState {
  /** The fence open in the panel: one of the list, a new one, or none. */
  selectedId: string | 'new' | null;
  draft: GeofenceDraft;
  mode: EditorMode;
  errors: Errors;
  pending: boolean;
}

type Action =
  | { type: 'open'; geofence: Geofence }
  | { type: 'new'; mode: EditorMode }
  | { type: 'close' }
  | { type: 'change'; changes: Partial<GeofenceDraft> }
  | { type: 'mode'; mode: EditorMode }
  | { type: 'drawn'; geometry: GeofenceDraft['geometry'] }
  | { type: 'invalid'; errors: Errors }
  | { type: 'saving'; pending: boolean }
  | { type: 'saved'; geofence: Geofence };

const CLOSED: EditorState = {
  selectedId: null,
  draft: emptyDraft(),
  mode: 'idle',
  errors: {},
  pending: false,
};

const fromGeofence = (g: Geofence): GeofenceDraft => ({
  name: g.name,
  description: g.description ?? '',
  color: g.color,
  speedLimit: g.speedLimit === null ? '' : String(g.speedLimit),
  geometry: g.geometry,
});

/** Changing a field clears its error (a new shape clears the radius's too). */
function change(state: EditorState, changes: Partial<GeofenceDraft>): EditorState {
  const errors = { ...state.errors };
  for (const key of Object.keys(changes)) errors[key] = undefined;
  if (changes.geometry) errors.radius = undefined;
  return { ...state, draft: { ...state.draft, ...changes }, errors };
}

export function editorReducer(state: EditorState, action: Action): EditorState {
  switch (action.type) {
    case 'open':
      return {
        ...CLOSED,
        pending: state.pending,
        selectedId: action.geofence.id,
        draft: fromGeofence(action.geofence),
      };
    case 'new':
      return { ...CLOSED, pending: state.pending, selectedId: 'new', mode: action.mode };
    case 'close':
      return { ...state, selectedId: null, mode: 'idle', errors: {} };
    case 'change':
      return change(state, action.changes);
    case 'mode':
      return { ...state, mode: action.mode };
    case 'drawn':
      return { ...change(state, { geometry: action.geometry }), mode: 'idle' };
    case 'invalid':
      return { ...state, errors: action.errors };
    case 'saving':
      return { ...state, pending: action.pending };
    case 'saved':
      return {
        ...state,
        selectedId: action.geofence.id,
        draft: fromGeofence(action.geofence),
        pending: false,
      };
  }
}

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

/**
 * The editor of one customer's fences. `selected`: the open fence of the list (undefined for
 * a new one); `refresh`: resyncs the mirror after a write.
 */
export function useGeofenceEditor(
  clientId: string | null,
  geofences: Geofence[],
  refresh: () => Promise<void>,
) {
  const [state, dispatch] = useReducer(editorReducer, CLOSED);
  const { selectedId, draft } = state;
  const selected =
    selectedId && selectedId !== 'new' ? geofences.find((g) => g.id === selectedId) : undefined;

  async function save() {
    const creating = selectedId === 'new';
    if (!draft.geometry) {
      dispatch({ type: 'invalid', errors: { geometry: geofencesText.noShape } });
      return;
    }
    const payload = payloadOf(draft, selected?.clientId ?? clientId, !creating);
    const problems = errorsOf(payload);
    if (problems) {
      dispatch({ type: 'invalid', errors: problems });
      return;
    }
    if (!requireOnline()) return;
    dispatch({ type: 'saving', pending: true });
    try {
      const saved = creating
        ? await createGeofence(payload)
        : await updateGeofence(selectedId ?? '', payload);
      toast.success(creating ? geofencesText.created : geofencesText.saved);
      await refresh();
      dispatch({ type: 'saved', geofence: saved });
    } catch (err) {
      dispatch({ type: 'saving', pending: false });
      await toastError(geofencesText.saveError, err);
    }
  }

  async function remove() {
    if (!selected || !requireOnline()) return;
    try {
      await removeGeofence(selected.id);
      toast.success(geofencesText.removed);
      dispatch({ type: 'close' });
      await refresh();
    } catch (err) {
      await toastError(geofencesText.removeError, err);
    }
  }

  return {
    ...state,
    selected,
    editing: selectedId !== null,
    open: (id: string) => {
      const geofence = geofences.find((g) => g.id === id);
      if (geofence) dispatch({ type: 'open', geofence });
    },
    startNew: (mode: EditorMode) => dispatch({ type: 'new', mode }),
    close: () => dispatch({ type: 'close' }),
    change: (changes: Partial<GeofenceDraft>) => dispatch({ type: 'change', changes }),
    setMode: (mode: EditorMode) => dispatch({ type: 'mode', mode }),
    drawn: (geometry: GeofenceDraft['geometry']) => dispatch({ type: 'drawn', geometry }),
    save,
    remove,
  };
}
