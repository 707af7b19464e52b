/** Plain text as an Atlassian Document Format document: one paragraph per line (ADF forbids empty text nodes). */
export function adf(text: string): Record<string, unknown> {
  const content = text
    .split(/\r?\n/)
    .map((line) => (line === '' ? { type: 'paragraph', content: [] } : { type: 'paragraph', content: [{ type: 'text', text: line }] }));
  return { type: 'doc', version: 1, content };
}
