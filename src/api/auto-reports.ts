/**
 * Automated reports (SPEC §7 `registros/crud-reports-processor`): the resource calls the shared
 * list and form screens use (PUT for changes, as the spec says), and 'Enviar agora'.
 */
import * as v from 'valibot';
import {
  type AutoReportRule,
  AutoReportRulePageSchema,
  AutoReportRuleSchema,
  MessageSchema,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';
import type { ResourceApi } from './resources';

const PATH = 'registros/crud-reports-processor';

export const autoReportRulesApi: ResourceApi<
  AutoReportRule,
  v.InferOutput<typeof AutoReportRulePageSchema>
> & { sendNow(id: string): Promise<AutoReportRule> } = {
  path: PATH,
  async list(params) {
    const searchParams = removeEmptyProperties({ ...params }) as Record<
      string,
      string | number | boolean
    >;
    return v.parse(AutoReportRulePageSchema, await api.get(PATH, { searchParams }).json());
  },
  async get(id) {
    return v.parse(AutoReportRuleSchema, await api.get(`${PATH}/${id}`).json());
  },
  async create(body) {
    return v.parse(
      AutoReportRuleSchema,
      await api.post(PATH, { json: removeEmptyProperties(body) }).json(),
    );
  },
  async update(id, body) {
    return v.parse(AutoReportRuleSchema, await api.put(`${PATH}/${id}`, { json: body }).json());
  },
  async remove(id) {
    return v.parse(MessageSchema, await api.delete(`${PATH}/${id}`).json()).message;
  },
  async sendNow(id) {
    return v.parse(
      AutoReportRuleSchema,
      await api.post(`${PATH}/${id}/send`, { timeout: 300_000 }).json(),
    );
  },
};
