/**
 * Finds user-facing pt-BR text written inline in the PWA's components instead of coming from
 * src/i18n: JSX text, the string props a person reads or hears (aria-label, placeholder,
 * title, label…), and string literals that read as Portuguese prose (an accented letter or a
 * Portuguese function word between words, or a capitalised phrase) wherever they are.
 * Parsed with the bundler's own parser (oxc, through vite), so comments and types never count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';

export interface Stray {
  file: string;
  line: number;
  text: string;
  why: 'jsx-text' | 'prop' | 'prose';
  /** Where it stands in the source (offsets) and what node holds it. */
  start: number;
  end: number;
  node: string;
}

/** Props whose strings reach a person (screen, screen reader or tooltip). */
const USER_PROPS = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'placeholder',
  'title',
  'alt',
  'label',
  'description',
  'errorMessage',
  'emptyText',
  'confirmLabel',
  'heading',
  'hint',
  'noun',
]);

const LETTER = /\p{L}/u;
const PT_WORD =
  /(^|\s)(de|do|da|dos|das|não|com|sem|para|por|um|uma|ao|aos|no|na|nos|nas|em|ou|e|o|a|os|as|se|que|mais|até|já)(\s|$)/i;
const ACCENT = /[áàâãéêíóôõúçÁÀÂÃÉÊÍÓÔÕÚÇ]/;
/** A capitalised phrase of Portuguese-looking words ('Carregando clientes…', 'Ver no mapa'). */
const PHRASE = /^[A-ZÁÉÍÓÚÂÊÔÃÕÇ][a-záéíóúâêôãõç]+(\s+\S+)+/;

/** Whether a literal that is not in a user prop or JSX text reads as Portuguese prose. */
export function readsAsProse(text: string): boolean {
  const t = text.trim();
  if (!LETTER.test(t) || !/\s/.test(t)) return ACCENT.test(t) && /^[\p{L}]/u.test(t);
  if (/^[\w-]+(\s+[\w-]+)*$/.test(t) && t === t.toLowerCase() && !PT_WORD.test(t)) return false;
  return ACCENT.test(t) || PT_WORD.test(t) || PHRASE.test(t);
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };
const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

/** Calls whose strings are for developers: logs, thrown errors, test ids, selectors. */
const DEV_CALLS =
  /^(console\.\w+|Error|TypeError|RangeError|querySelector|querySelectorAll|matchMedia|getItem|setItem|removeItem|addEventListener|removeEventListener|postMessage|mark|measure|getEntriesByName|fetch|import)$/;

function calleeName(node: Node): string {
  const callee = node.callee as Node | undefined;
  if (!callee) return '';
  if (callee.type === 'Identifier') return String(callee.name);
  if (callee.type === 'MemberExpression' || callee.type === 'StaticMemberExpression') {
    const object = callee.object as Node;
    const property = callee.property as Node;
    const name = String(property.name ?? '');
    return object.type === 'Identifier' && object.name === 'console' ? `console.${name}` : name;
  }
  return '';
}

export function straysIn(file: string, code: string): Stray[] {
  const lang = file.endsWith('.tsx') ? 'tsx' : 'ts';
  const { program, errors } = parseSync(file, code, { lang });
  if (errors.length) throw new Error(`${file}: ${errors[0]?.message}`);
  const found: Stray[] = [];
  const lineOf = (offset: number) => code.slice(0, offset).split('\n').length;
  const add = (node: Node, text: string, why: Stray['why']) =>
    found.push({
      file,
      line: lineOf(node.start),
      text: text.trim(),
      why,
      start: node.start,
      end: node.end,
      node: node.type,
    });

  const strings = (node: unknown, each: (n: Node, text: string) => void) => {
    if (!isNode(node)) return;
    // A comparison inside a label's expression ('block' in confirm === 'block' ? …) is a value.
    if (node.type === 'BinaryExpression') return;
    if (node.type === 'Literal' && typeof node.value === 'string') each(node, node.value);
    else if (node.type === 'TemplateLiteral')
      for (const q of node.quasis as Node[])
        each(q, String((q.value as { cooked?: string }).cooked ?? ''));
    else if (node.type === 'JSXText') each(node, String(node.value));
    else
      for (const [key, value] of Object.entries(node)) {
        if (key === 'type' || key === 'start' || key === 'end') continue;
        if (Array.isArray(value)) for (const v of value) strings(v, each);
        else strings(value, each);
      }
  };

  const walk = (node: unknown, devOnly: boolean) => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, devOnly);
      return;
    }
    if (!isNode(node)) return;
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
        if (node.source) return;
        break;
      case 'TSTypeAnnotation':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSLiteralType':
      case 'TSAsExpression':
        if (node.type !== 'TSAsExpression') return;
        break;
      case 'CallExpression':
      case 'NewExpression':
        if (DEV_CALLS.test(calleeName(node))) devOnly = true;
        break;
      case 'JSXText':
        if (LETTER.test(String(node.value))) add(node, String(node.value), 'jsx-text');
        return;
      case 'JSXAttribute': {
        const name = node.name as Node;
        const attr = String(name.name ?? '');
        if (USER_PROPS.has(attr)) {
          strings(node.value, (n, text) => {
            if (LETTER.test(text)) add(n, text, 'prop');
          });
          return;
        }
        if (attr === 'className' || attr === 'id' || attr.startsWith('data-')) return;
        break;
      }
      case 'Property': {
        // Object keys are names, not text; a user-facing key ({ label: 'Nome' }) is text.
        const key = node.key as Node;
        const name = String(key.name ?? key.value ?? '');
        if (USER_PROPS.has(name) && !devOnly) {
          strings(node.value, (n, text) => {
            if (LETTER.test(text)) add(n, text, 'prop');
          });
          return;
        }
        walk(node.value, devOnly);
        return;
      }
      case 'Literal':
        if (!devOnly && typeof node.value === 'string' && readsAsProse(node.value))
          add(node, node.value, 'prose');
        return;
      case 'TemplateLiteral':
        if (!devOnly)
          for (const q of node.quasis as Node[]) {
            const text = String((q.value as { cooked?: string }).cooked ?? '');
            if (readsAsProse(text)) add(q, text, 'prose');
          }
        walk(node.expressions, devOnly);
        return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      walk(value, devOnly);
    }
  };
  walk(program, false);
  return found;
}

/** The PWA's modules where labels must come from src/i18n (not the labels, schemas or pure helpers). */
export function componentFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (['i18n', 'contract', 'lib'].includes(entry.name) && dir === root) continue;
        visit(full);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  visit(root);
  return out.sort();
}

export function strays(root: string): Stray[] {
  return componentFiles(root).flatMap((file) =>
    straysIn(path.relative(path.dirname(root), file), readFileSync(file, 'utf8')),
  );
}
