/**
 * pt-BR text of the driver's own page and of the managers' driver links and problem reports:
 * apart from pt-BR.ts, so that it loads with those pages and not before the sign-in page.
 */
import { jornadaText } from './jornada';

export const driverPageText = {
  title: 'Página do motorista',
  pinTitle: 'Digite o seu PIN',
  pinIntro: 'O PIN foi passado pelo seu gestor junto com este link.',
  pin: 'PIN',
  enter: 'Entrar',
  entering: 'Entrando…',
  signOut: 'Sair',
  offline: 'Sem conexão',
  online: 'Conectado',
  now: 'Agora',
  since: (clock: string) => `desde ${clock}`,
  states: {
    off: 'Fora da jornada',
    working: 'Em jornada',
    meal: 'Em refeição',
    rest: 'Em descanso',
    waiting: 'Em espera',
    ended: 'Jornada encerrada',
  },
  vehicle: 'Veículo',
  noVehicle: 'Nenhum veículo identificado agora',
  nextBreak: 'Pausa obrigatória em',
  breakNow: 'Faça a pausa obrigatória agora',
  /** A length of time as a driver reads it at a glance: '7 h', '7 h 05 min', '45 min'. */
  hoursMinutes: (ms: number) => {
    const total = Math.max(0, Math.round(ms / 60_000));
    const h = Math.floor(total / 60);
    const m = total % 60;
    if (h === 0) return `${m} min`;
    return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} min`;
  },
  restTitle: 'Descanso',
  /** `day`: 'dd/mm' when it is not today. */
  restComplete: (day: string | null, clock: string) =>
    `11 h de descanso completas ${day ? `em ${day} ` : ''}às ${clock}`,
  restCompleteHint: 'Começar a jornada antes disso é descanso insuficiente.',
  restShort: 'Descanso insuficiente',
  restShortWhy: (rest: string) =>
    `Esta jornada começou depois de ${rest} de descanso. A lei pede 11 h a cada 24 h.`,
  restRemainder: (rest: string, day: string | null, clock: string) =>
    `Descanso fracionado: faça mais ${rest} de descanso até ${day ? `${day} às ` : ''}${clock}.`,
  restFirstTooShort: 'O primeiro período de descanso deve ter pelo menos 8 h seguidas.',
  marks: jornadaText.markKinds as Record<string, string>,
  marked: (what: string, clock: string) => `${what} marcado às ${clock}`,
  markedOffline: (what: string, clock: string) =>
    `${what} marcado às ${clock}. Sem conexão: será enviado quando ela voltar.`,
  pending: (n: number) =>
    n === 1 ? '1 envio aguardando a conexão' : `${n} envios aguardando a conexão`,
  sent: (n: number) =>
    n === 1 ? 'A conexão voltou: 1 envio entregue' : `A conexão voltou: ${n} envios entregues`,
  pendingHint: 'Ficam guardados neste aparelho, com o horário em que você marcou.',
  problemPending: 'Problema relatado',
  today: 'Hoje',
  noPeriods: 'Nenhum período registrado hoje.',
  periods: {
    driving: 'Direção',
    work: 'Outro trabalho',
    waiting: 'Espera',
    meal: 'Refeição',
    rest: 'Descanso',
  } as Record<string, string>,
  updatedAt: (clock: string) => `Atualizado às ${clock}`,
  problem: 'Relatar problema no veículo',
  problemTitle: 'Problema no veículo',
  problemText: 'O que aconteceu?',
  problemPhoto: 'Tirar ou escolher foto (opcional)',
  problemPhotoOther: 'Trocar a foto',
  problemPhotoRemove: 'Remover a foto',
  send: 'Enviar',
  cancel: 'Cancelar',
  problemSent: 'Problema enviado ao gestor',
  problemQueued: 'Sem conexão: o problema será enviado quando ela voltar.',
  photoUnreadable: 'Não foi possível ler esta foto. Tente outra.',
  sessionEnded: 'Sua sessão terminou. Abra de novo o link que o gestor enviou.',
  noLink: 'Abra o link que o seu gestor enviou para entrar.',
  // Managers: the driver's links, in the driver's form.
  links: 'Link do motorista',
  linksIntro:
    'O motorista abre este link no celular, digita o PIN e marca a jornada (também sem conexão) e relata problemas do veículo.',
  newLink: 'Criar link',
  linkPin: 'PIN (4 a 6 dígitos)',
  linkDays: 'Validade',
  linkDurations: { 7: '7 dias', 30: '30 dias', 90: '90 dias', 365: '1 ano' } as Record<
    number,
    string
  >,
  linkCreated:
    'Link criado. Envie o endereço e o PIN ao motorista: o endereço não será mostrado de novo.',
  linkAddress: 'Endereço do link',
  copy: 'Copiar endereço',
  copied: 'Endereço copiado',
  copyFailed: 'Não foi possível copiar. Selecione o endereço e copie.',
  qr: 'QR code do link para o celular do motorista',
  revoke: 'Revogar',
  revokeTitle: 'Revogar o link?',
  revokeBody: 'O motorista deixa de acessar a página neste e em qualquer outro aparelho.',
  revoked: 'Link revogado',
  noLinks: 'Nenhum link criado para este motorista.',
  linkStates: {
    active: 'Ativo',
    locked: 'Bloqueado (PIN errado)',
    expired: 'Expirado',
    revoked: 'Revogado',
  } as Record<string, string>,
  validUntil: 'Válido até',
  lastUsed: 'Último acesso',
  never: 'nunca',
  state: 'Situação',
  // Managers: the problems drivers reported.
  reportsTitle: 'Relatos dos motoristas',
  reportsIntro: 'Problemas com os veículos relatados pelos motoristas na página deles.',
  reportDriver: 'Motorista',
  reportVehicle: 'Veículo',
  reportText: 'Problema',
  reportWhen: 'Relatado em',
  reportPhoto: 'Foto',
  reportPhotoAlt: (plate: string) => `Foto do problema relatado (${plate})`,
  reportOpen: 'Aberto',
  reportResolved: 'Resolvido',
  resolve: 'Marcar como resolvido',
  resolvedToast: 'Problema marcado como resolvido',
  noReports: 'Nenhum problema relatado.',
};
