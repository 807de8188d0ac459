import { asObject, truncateText } from '../template';

/**
 * Slack incoming-webhook caps (shared/reference/chat-platforms.md). Breaking a block cap
 * refuses the whole message (400 invalid_blocks / too_many_attachments), so Relay cuts
 * first: 50 blocks (the last kept slot becomes a note saying how many were dropped), section
 * text 3,000, section fields 10 × 2,000, header text 150, attachments 100 (extra ones
 * dropped), message text 40,000 (Slack would cut silently; Relay cuts with a visible marker).
 */
export const CAPS = {
  text: 40_000,
  blocks: 50,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  attachments: 100,
} as const;

export const TEXT_MARKER = '… (truncated)';

export function omittedBlocksNote(count: number): Record<string, unknown> {
  return {
    type: 'context',
    elements: [
      {
        type: 'plain_text',
        text: `${count} more block${count === 1 ? '' : 's'} omitted: Slack allows ${CAPS.blocks} blocks per message`,
      },
    ],
  };
}

export function fitMessage(message: Record<string, unknown>): Record<string, unknown> {
  const out = { ...message };
  if (typeof out.text === 'string') out.text = truncateText(out.text, CAPS.text, TEXT_MARKER);
  if (Array.isArray(out.blocks)) out.blocks = fitBlocks(out.blocks);
  if (Array.isArray(out.attachments) && out.attachments.length > CAPS.attachments) {
    out.attachments = out.attachments.slice(0, CAPS.attachments);
  }
  return out;
}

export function fitBlocks(blocks: readonly unknown[]): unknown[] {
  const kept = blocks.length > CAPS.blocks ? blocks.slice(0, CAPS.blocks - 1) : blocks;
  const out = kept.map(fitBlock);
  if (blocks.length > CAPS.blocks) out.push(omittedBlocksNote(blocks.length - kept.length));
  return out;
}

function fitBlock(item: unknown): unknown {
  const block = asObject(item);
  if (!block) return item;
  if (block.type === 'header') return { ...block, text: fitTextObject(block.text, CAPS.headerText) };
  if (block.type !== 'section') return block;
  const out: Record<string, unknown> = { ...block };
  if (block.text !== undefined) out.text = fitTextObject(block.text, CAPS.sectionText);
  if (Array.isArray(block.fields)) {
    out.fields = block.fields.slice(0, CAPS.sectionFields).map((f) => fitTextObject(f, CAPS.sectionFieldText));
  }
  return out;
}

/** A composition text object `{type, text}`; anything else is left for Slack to judge. */
function fitTextObject(value: unknown, max: number): unknown {
  const obj = asObject(value);
  if (!obj || typeof obj.text !== 'string') return value;
  return { ...obj, text: truncateText(obj.text, max, TEXT_MARKER) };
}
