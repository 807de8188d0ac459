import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api';
import type { CodeEditorHandle } from '../lib/code-editor';
import { Notice } from './ui';

/**
 * A code editor (CodeMirror, lib/code-editor.ts), its chunk fetched when first shown: the rest
 * of the dashboard never pays for it. `value` is the text; a change of it from outside (a
 * reload, a restored version) replaces what the editor shows.
 */
export function CodeEditor(props: {
  value: string;
  label: string;
  readOnly: boolean;
  onChange: (code: string) => void;
}) {
  // CodeMirror owns this element's shadow root; Preact draws nothing in it
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<CodeEditorHandle | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const value = useRef(props.value);
  value.current = props.value;
  const [state, setState] = useState<'loading' | 'ready' | string>('loading');

  useEffect(() => {
    let live = true;
    import('../lib/code-editor').then(
      ({ mountCodeEditor }) => {
        if (!live || !host.current) return;
        editor.current = mountCodeEditor(host.current, {
          doc: value.current,
          label: props.label,
          readOnly: props.readOnly,
          onChange: (code) => onChange.current(code),
        });
        setState('ready');
      },
      (err: unknown) => live && setState(messageOf(err)),
    );
    return () => {
      live = false;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [props.readOnly, props.label]);
  // in the commit, before the next key: an effect run after paint would carry a value the
  // editor has already moved past, and set it back over what was typed since
  useLayoutEffect(() => editor.current?.set(props.value), [props.value]);

  return (
    <>
      {state === 'loading' && (
        <p class="loading" role="status">
          Loading the editor…
        </p>
      )}
      {state !== 'loading' && state !== 'ready' && (
        <Notice kind="error">The editor could not be loaded: {state}</Notice>
      )}
      <div class="code-editor" ref={host} />
    </>
  );
}
