/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { importFlow } from '../../src/chat/db/flows';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(240_000);

/** Debian's chromium package (.ci/run installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const graph = {
  nodes: [
    { id: 'start', type: 'start', next: 'greet' },
    { id: 'greet', type: 'message', text: 'Hello from the demo!', next: 'ask' },
    { id: 'ask', type: 'question', text: 'What is your email?', field: 'email', validate: 'email', next: 'chat' },
    {
      id: 'chat',
      type: 'ai_reply',
      text: 'Thanks! Ask me anything.',
      prompt: 'I can only talk about opening hours.',
      facts: ['We are open from nine to five.'],
      next: 'chat_end',
    },
    { id: 'chat_end', type: 'decision', branches: [{ when: { keywords: ['bye'] }, next: 'end' }], otherwise: 'chat' },
    { id: 'end', type: 'end' },
  ],
};

let app: TestApp;
let browser: Browser;
let flowId: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  app = await startTestApp({ workers: true });
  const { workspaceId } = await app.newWorkspace();
  flowId = (await importFlow(app.db, workspaceId, { name: 'Demo', publicChat: true, ownerName: 'Ava', graph })).id;
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const transcript = (page: Page) =>
  page.$$eval('#sb-chat .sb-msg', (els) => els.map((e) => `${e.classList.contains('sb-user') ? 'user' : 'bot'}: ${e.textContent}`));

async function waitForTranscript(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction(
    (want: string[]) => {
      const got = Array.from(document.querySelectorAll('#sb-chat .sb-msg')).map((e) => `${e.classList.contains('sb-user') ? 'user' : 'bot'}: ${e.textContent}`);
      return JSON.stringify(got) === JSON.stringify(want);
    },
    { timeout: 60_000 },
    expected,
  );
}

test('the demo page greets, answers, and shows the same conversation after a reload', async () => {
  const page = await browser.newPage();
  // The page's Content-Security-Policy must allow everything the widget does.
  const refused: string[] = [];
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && refused.push(m.text()));
  await page.goto(`${app.url}/webchat/demo/${flowId}`);
  await waitForTranscript(page, ['bot: Hello from the demo!', 'bot: What is your email?']);
  expect(await page.$eval('#sb-chat .sb-name', (e) => e.textContent)).toBe('Ava');
  await page.type('#sb-chat input', 'visitor@example.com');
  await page.keyboard.press('Enter');
  await waitForTranscript(page, ['bot: Hello from the demo!', 'bot: What is your email?', 'user: visitor@example.com', 'bot: Thanks! Ask me anything.']);
  await page.type('#sb-chat input', 'When are you open?');
  await page.keyboard.press('Enter');
  const conversation = [
    'bot: Hello from the demo!',
    'bot: What is your email?',
    'user: visitor@example.com',
    'bot: Thanks! Ask me anything.',
    'user: When are you open?',
    'bot: We are open from nine to five.',
  ];
  await waitForTranscript(page, conversation);
  const session = await page.evaluate((id) => localStorage.getItem(`switchboard-chat:${id}`), flowId);
  expect(session).toMatch(/^webchat-session\./);
  await page.reload();
  await waitForTranscript(page, conversation);
  expect(await transcript(page)).toEqual(conversation);
  // The same session goes on.
  await page.type('#sb-chat input', 'bye');
  await page.keyboard.press('Enter');
  await waitForTranscript(page, [...conversation, 'user: bye', 'bot: Goodbye, and thanks for stopping by!', 'bot: Flow has ended']);
  await page.waitForFunction(() => (document.querySelector('#sb-chat input') as HTMLInputElement).disabled);
  // The widget's style applied under the policy (by the page's nonce): the panel is laid out, not unstyled.
  expect(await page.$eval('#sb-chat', (e) => getComputedStyle(e).position)).toBe('fixed');
  expect(refused).toEqual([]);
});
