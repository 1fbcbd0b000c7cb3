/** A lookup query as a picker's choices (see `Choices`). */
import { isUnavailable } from '../api/query';
import type { Choices, SelectOption } from '../ui/Select';

export function choicesOf(
  query: { isLoading: boolean; data: unknown; fetchStatus: string; isPlaceholderData?: boolean },
  options: SelectOption[],
): Choices {
  return { options, loading: query.isLoading, unavailable: isUnavailable(query) };
}

/** The same choices with fixed ones first ('Nenhum', 'Sem motorista'). */
export function withFirst(first: SelectOption[], choices: Choices): Choices {
  return { ...choices, options: [...first, ...choices.options] };
}
