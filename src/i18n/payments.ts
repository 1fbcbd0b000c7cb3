/**
 * pt-BR text of the invoices and payments screens only: apart from pt-BR.ts, so that it loads
 * with those pages and not before the sign-in page (its JavaScript budget).
 */
export const paymentsText = {
  title: 'Faturas e pagamentos',
  fetchError: 'Erro ao buscar cobranças',
  invoiceError: 'Erro ao buscar a fatura',
  notConfigured: 'Pagamentos não configurados',
  notConfiguredText:
    'Este servidor ainda não está ligado a um sistema de pagamentos. Fale com o suporte para receber as suas faturas.',
  empty: 'Nenhuma cobrança para este cliente.',
  document: 'Documento',
  description: 'Descrição',
  value: 'Valor',
  dueDate: 'Vencimento',
  method: 'Forma',
  status: 'Situação',
  createdAt: 'Emitida em',
  paidAt: 'Paga em',
  open: 'Abrir',
  invoice: (document: string) => `Fatura nº ${document}`,
  back: 'Voltar às faturas',
  copyPix: 'Copiar código Pix',
  copyLine: 'Copiar linha digitável',
  copied: 'Copiado.',
  copyFailed: 'Não foi possível copiar: selecione o texto e copie.',
  pixCode: 'Código Pix (copia e cola)',
  pixQr: 'QR code do Pix',
  pixHelp: 'Abra o app do seu banco, escolha pagar com Pix e leia o QR code ou cole o código.',
  digitableLine: 'Linha digitável',
  boletoPdf: 'Baixar boleto (PDF)',
  payByCard: 'Pagar com cartão de crédito',
  settled: 'Cobrança paga: nada a pagar.',
  inactive: 'Cobrança inativa: nada a pagar.',
  overdue: 'Vencida',
  providerPage: 'Ver no Asaas',
};
