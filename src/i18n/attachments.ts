/**
 * pt-BR text of the attachments panel of service records and documents: apart from pt-BR.ts,
 * so that it loads with those pages and not before the sign-in page (its JavaScript budget).
 */
import { MAX_ATTACHMENT_MB, MAX_ATTACHMENTS_PER_RECORD } from '../contract/attachments';

export const attachmentsText = {
  title: 'Anexos',
  hint: `Fotos (JPEG, PNG, WebP) ou PDF, até ${MAX_ATTACHMENT_MB} MB cada, no máximo ${MAX_ATTACHMENTS_PER_RECORD} por registro.`,
  afterSaving: 'Fotos e PDFs podem ser anexados depois de salvar o registro.',
  none: 'Nenhum arquivo anexado.',
  loading: 'Carregando anexos…',
  loadError: 'Erro ao carregar os anexos',
  list: 'Arquivos anexados',
  add: 'Anexar arquivos',
  full: `Limite de ${MAX_ATTACHMENTS_PER_RECORD} anexos atingido: remova algum para anexar outro.`,
  sending: (name: string, n: number, total: number) =>
    total === 1 ? `Enviando ${name}…` : `Enviando ${name} (${n} de ${total})…`,
  sendError: (name: string) => `Erro ao anexar ${name}`,
  open: (name: string) => `Abrir ${name}`,
  download: 'Baixar',
  downloadOf: (name: string) => `Baixar ${name}`,
  openError: 'Erro ao abrir o anexo',
  remove: 'Remover',
  removeOf: (name: string) => `Remover ${name}`,
  removeTitle: 'Remover anexo?',
  removeBody: (name: string) => `O arquivo ${name} será removido deste registro.`,
  removeError: 'Erro ao remover o anexo',
  badges: { pdf: 'PDF', image: 'FOTO' },
  kinds: {
    'image/jpeg': 'Foto JPEG',
    'image/png': 'Imagem PNG',
    'image/webp': 'Imagem WebP',
    'application/pdf': 'PDF',
  } as Record<string, string>,
  size: (bytes: number) =>
    bytes < 1024
      ? `${bytes} B`
      : bytes < 1024 * 1024
        ? `${Math.round(bytes / 1024)} KB`
        : `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`,
  by: (name: string) => `por ${name}`,
};
