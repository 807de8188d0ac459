import { javascript } from '@codemirror/lang-javascript';
import { EditorState } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';

/**
 * CodeMirror 6 on a host element, for transformation code (decision 0024). Loaded on demand
 * (components/editor.tsx imports this module dynamically), so its chunk is fetched only by a
 * page that shows code.
 */
export interface CodeEditorHandle {
  /** replaces the text (a restored version, a reload); a no-op when it is the same */
  set(doc: string): void;
  destroy(): void;
}

export interface CodeEditorOptions {
  doc: string;
  /** the accessible name of the text box */
  label: string;
  readOnly: boolean;
  onChange(doc: string): void;
}

/** The dashboard's look (styles.css) inside the editor, where the page's style sheet does not reach. */
const look = EditorView.theme({
  '&': { minHeight: '12rem', maxHeight: '32rem', backgroundColor: '#fff' },
  '&.cm-focused': { outline: '3px solid #f59e0b', outlineOffset: '-3px' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace", fontSize: '13.5px' },
});

export function mountCodeEditor(host: HTMLElement, opts: CodeEditorOptions): CodeEditorHandle {
  const attrs: Record<string, string> = { 'aria-label': opts.label, 'aria-multiline': 'true' };
  if (opts.readOnly) attrs['aria-readonly'] = 'true';
  // In a shadow root of its own, CodeMirror styles itself with constructed style sheets, which the
  // page's CSP allows; on the document it would add a <style> element, which `style-src 'self'`
  // refuses, and without its styles Chromium types spaces as no-break spaces.
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: opts.doc,
      extensions: [
        basicSetup,
        javascript(),
        look,
        // a long line wraps rather than scroll out of a phone's view
        EditorView.lineWrapping,
        EditorState.tabSize.of(2),
        EditorState.readOnly.of(opts.readOnly),
        EditorView.editable.of(!opts.readOnly),
        EditorView.contentAttributes.of(attrs),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    set(doc: string): void {
      if (doc !== view.state.doc.toString())
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
    },
    destroy: () => view.destroy(),
  };
}
