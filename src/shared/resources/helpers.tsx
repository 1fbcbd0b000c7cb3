/** What the inventory declarations share: the status column, messages and payload helpers. */
import type { ResourceMessages } from './resource';
import '../../ui/badge.css';
import { t } from '../../i18n/pt-BR';

export const statusColumn = {
  id: 'status',
  label: t.screens.helpers.status,
  render: (item: { active: boolean }) => (
    <span className={`badge ${item.active ? 'badge-success' : 'badge-neutral'}`}>
      {item.active ? 'Ativo' : 'Inativo'}
    </span>
  ),
};

/** The toasts and texts of a resource, from its name ('veículo'), gender and plural. */
export function messages(one: string, article: 'o' | 'a', plural: string): ResourceMessages {
  const removed = article === 'o' ? 'removido' : 'removida';
  const title = `${one[0]?.toUpperCase()}${one.slice(1)}`;
  return {
    fetchError: `Erro ao buscar ${plural}`,
    saveError: `Erro ao salvar ${one}`,
    removeError: `Erro ao remover ${one}`,
    created: `${title} ${article === 'o' ? 'criado' : 'criada'}.`,
    saved: `${title} ${article === 'o' ? 'salvo' : 'salva'}.`,
    removed: `${title} ${removed}.`,
    confirmRemove: `Remover ${one}?`,
    confirmRemoveText: `${article === 'o' ? 'O' : 'A'} ${one} deixa de aparecer nas listas.`,
    empty: `Nenhum${article === 'a' ? 'a' : ''} ${one} encontrad${article}.`,
  };
}

/** Empty text is absent when creating. */
export const opt = (value: string) => (value.trim() === '' ? undefined : value.trim());
/** Empty text is absent when creating and null (cleared) when editing. */
export const clear = (value: string, editing: boolean) =>
  value.trim() === '' ? (editing ? null : undefined) : value.trim();
/** A number typed as text, cleared like `clear`. */
export const num = (value: string, editing: boolean) =>
  value.trim() === '' ? (editing ? null : undefined) : Number(value);
