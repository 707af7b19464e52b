/** Notion caps one rich-text item's content at 2000 characters. */
const MAX_TEXT = 2000;

/** Plain text as Notion rich-text items, split at Notion's per-item limit. */
export function richText(text: string): Array<{ type: 'text'; text: { content: string } }> {
  const items: Array<{ type: 'text'; text: { content: string } }> = [];
  for (let i = 0; i < text.length; i += MAX_TEXT) items.push({ type: 'text', text: { content: text.slice(i, i + MAX_TEXT) } });
  return items;
}

/** Plain text as paragraph blocks, one per non-empty line. */
export function paragraphs(text: string): Array<Record<string, unknown>> {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => ({ object: 'block', type: 'paragraph', paragraph: { rich_text: richText(line) } }));
}
