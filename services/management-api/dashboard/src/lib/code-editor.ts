import { javascript } from '@codemirror/lang-javascript';
import { EditorState } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';

/**
 * CodeMirror 6 on a host element, for transformation code (decision 0170). Loaded on demand
 * (components/editor.tsx imports this module dynamically), so its chunk is fetched only by a
 * page that shows code. Its styles go in as constructed style sheets, which the page's CSP
 * (`style-src 'self'`) allows.
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
  describedBy?: string;
  onChange(doc: string): void;
}

export function mountCodeEditor(parent: HTMLElement, opts: CodeEditorOptions): CodeEditorHandle {
  const attrs: Record<string, string> = { 'aria-label': opts.label, 'aria-multiline': 'true' };
  if (opts.describedBy) attrs['aria-describedby'] = opts.describedBy;
  if (opts.readOnly) attrs['aria-readonly'] = 'true';
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.doc,
      extensions: [
        basicSetup,
        javascript(),
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
