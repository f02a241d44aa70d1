/**
 * An operator question rendered as a host renders it: an accessible HTML form built only from the registered kind's
 * typed payload (its choices, arity, placeholder), never from anything the request could carry as a schema. The
 * prompt is the fieldset's legend, each choice a labelled control (its detail tied to it by aria-describedby),
 * free text a plain text input — never a password field — with its accepted entries listed.
 */
import type { WidgetKind } from '../../../../runtime/inquirium/widget-kinds.ts';

type Json = Record<string, unknown>;
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The form of one request, `id` unique on its page. */
export function renderWidgetForm(kind: WidgetKind, request: Json, id: string): string {
  const payload = request['widget/payload'] as Json;
  const prompt = String((request.prompt as Json | undefined)?.text ?? '');
  const choices = kind.choices(payload);
  const { min, max } = kind.arity(payload);
  const legend = `<legend id="${id}-prompt">${esc(prompt)}</legend>`;
  const detail = (i: number): { attr: string; html: string } => {
    const d = choices[i]!.detail;
    return d === undefined ? { attr: '', html: '' } : { attr: ` aria-describedby="${id}-c${i}-detail"`, html: `<span class="widget-detail" id="${id}-c${i}-detail">${esc(d)}</span>` };
  };
  let body: string;
  let submit = '<button type="submit">Answer</button>';
  switch (kind.control) {
    case 'radio':
    case 'checkbox': {
      const hint = kind.control === 'checkbox' ? `<p class="widget-hint" id="${id}-hint">Pick ${min === max ? `exactly ${min}` : `${min} to ${max}`}.</p>` : '';
      body =
        hint +
        choices
          .map((c, i) => {
            const d = detail(i);
            return `<div class="widget-choice"><input type="${kind.control}" name="${id}-answer" id="${id}-c${i}" value="${esc(c.value)}"${kind.control === 'radio' ? ' required' : ''}${d.attr}><label for="${id}-c${i}">${esc(c.label)}</label>${d.html}</div>`;
          })
          .join('');
      break;
    }
    case 'confirm':
      body = '';
      submit = choices.map((c) => `<button type="submit" name="${id}-answer" value="${esc(c.value)}">${esc(c.label)}</button>`).join(' ');
      break;
    case 'text': {
      const placeholder = kind.placeholder?.(payload);
      const ci = kind.caseInsensitive?.(payload) === true;
      body =
        `<label for="${id}-text">Your answer</label>` +
        `<input type="text" id="${id}-text" name="${id}-answer" required autocomplete="off" spellcheck="false" aria-describedby="${id}-accepted"${placeholder !== undefined ? ` placeholder="${esc(placeholder)}"` : ''}>` +
        `<p class="widget-hint" id="${id}-accepted">Accepted${ci ? ' (any letter case)' : ''}: ${choices.map((c) => `<code>${esc(c.value)}</code>`).join(', ')}; anything else is refused, not stored.</p>`;
      break;
    }
  }
  return `<form class="widget-form" data-kind="${esc(kind.kind)}" aria-labelledby="${id}-prompt"><fieldset>${legend}${body}</fieldset><div class="widget-actions">${submit}</div></form>`;
}
