/**
 * How an inventory screen is declared: its API, list columns, form fields and messages.
 * ResourceListPage and ResourceFormPage render any declaration, so a new resource is a
 * short, typed description instead of another pair of pages. Who may create, change and
 * remove comes from the resource's area (features/areas/areas.ts), by `basePath`.
 */
import type { ReactNode } from 'react';
import type * as v from 'valibot';
import type { ListParams, ResourceApi } from '../../api/resources';
import type { Mirrored } from '../../db/hooks';
import type { ColumnDef } from '../../ui/DataTable';
import type { Choices, SelectOption } from '../../ui/Select';

export type FieldKind = 'text' | 'number' | 'select' | 'switch' | 'customer' | 'checkboxes';

export interface FieldDef<V> {
  key: keyof V & string;
  label: string;
  kind?: FieldKind;
  /** Fixed options (select, checkboxes); dynamic ones come from useOptions. */
  options?: SelectOption[];
  mask?: (value: string) => string;
  required?: boolean;
  type?: 'text' | 'email' | 'tel' | 'date' | 'password' | 'time';
  description?: ReactNode;
  /** A warning that depends on the values, said in the description's place (an expired CNH). */
  warningOf?: (values: V) => string | undefined;
  /** Only when creating (e.g. the customer of a record never moves from the form). */
  createOnly?: boolean;
  /** Shown only when this holds for the current values (e.g. 'remove' only when one is set). */
  shownWhen?: (values: V) => boolean;
  /** A label that depends on the other values (e.g. a threshold's unit by the rule's type). */
  labelOf?: (values: V) => string;
  /**
   * A switch's name: what it means switched on (default: Ativo). It stays as the state
   * changes, which the switch itself shows and tells screen readers.
   */
  switchLabel?: string;
  /** What a checkbox list counts, singular and plural ('3 veículos selecionados'). */
  noun?: [string, string];
  /** A button beside the field that fills values (e.g. 'Gerar senha'). */
  action?: { label: string; fill: (values: V) => Partial<V> };
}

export interface ResourceMessages {
  fetchError: string;
  saveError: string;
  removeError: string;
  created: string;
  saved: string;
  removed: string;
  confirmRemove: string;
  confirmRemoveText: string;
  empty: string;
}

export interface ResourceConfig<T extends { id: string }, P, V extends Record<string, unknown>> {
  title: string;
  newTitle: string;
  basePath: string;
  api: ResourceApi<T, P>;
  items: (page: P) => T[];
  total: (page: P) => number;
  nameOf: (item: T) => string;
  columns: ColumnDef<T>[];
  defaultSort: string;
  /** Orders offered beside the search (for sorts without a column of their own). */
  sortChoices?: { label: string; column: string; direction: 'asc' | 'desc' }[];
  /** Lists that need a selected customer (SPEC §5) show the customer picker. */
  byClient?: boolean;
  extraParams?: ListParams;
  searchLabel: string;
  fields: FieldDef<V>[];
  empty: (clientId: string | null) => V;
  fromItem: (item: T) => V;
  /** The payload; `editing` sends null for cleared fields. */
  toPayload: (values: V, editing: boolean) => object;
  schema: v.GenericSchema;
  /** Problems of the values the payload cannot show (see useRecordForm's check), by field. */
  problems?: (values: V) => Partial<Record<keyof V & string, string>>;
  fieldOf?: (path: string) => string;
  /**
   * Options that depend on data (vehicles of the customer, tracker types…): read ones as
   * `Choices`, so that the field says it is loading, or that they could not be read, instead of
   * offering its fixed choices alone; worked-out ones as a plain list.
   */
  useOptions?: (values: V) => Partial<Record<keyof V & string, SelectOption[] | Choices>>;
  messages: ResourceMessages;
  /** A toast shown while the list loads from the network (SPEC §8 'Carregando veículos...'). */
  loadingToast?: string;
  /**
   * Resources mirrored in IndexedDB (vehicles, drivers): the list reads the mirror at once
   * and works offline; search, sort and paging happen on the device.
   */
  mirror?: {
    /** `scope`: the selected customer's company ids (itself and those below it), or 'all'. */
    useRows: (clientId: string | null, scope: readonly string[] | 'all') => Mirrored<T>;
    /** One record from the mirror (`null`: not on this device), shown without signal. */
    useItem: (id: string | undefined) => T | null | undefined;
    matches: (item: T, query: string) => boolean;
    sortValue: (item: T, column: string) => string | number;
    /** What the list shows by default (drivers: only active ones, SPEC §3). */
    shown?: (item: T) => boolean;
  };
  /** Tools above the form's fields that fill them (e.g. plate lookup). */
  tools?: (values: V, patch: (changes: Partial<V>) => void) => ReactNode;
  /**
   * Values a new record starts with from the page's address (`?identifier=…`): a record
   * created from another screen (an unknown device becoming a tracker).
   */
  prefill?: (params: URLSearchParams) => Partial<V>;
  /** A panel beside the form that follows what is typed (creating or editing). */
  aside?: (values: V, item: T | undefined) => ReactNode;
  /** Extra panels under the form of an existing record (images, commands…). */
  extra?: (item: T, reload: () => void) => ReactNode;
}
