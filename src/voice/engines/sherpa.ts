/**
 * The parts of sherpa-onnx-node (N-API, prebuilt per platform; ships no type declarations) the engines use, typed.
 * Loaded on first use, so importing an engine module costs nothing until an engine starts.
 */

interface SherpaVadConfig {
  sileroVad: { model: string; threshold: number; minSilenceDuration: number; minSpeechDuration: number; windowSize: number; maxSpeechDuration: number };
  sampleRate: number;
  numThreads: number;
  provider: 'cpu';
  debug: boolean;
}

export interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  isDetected(): boolean;
  pop(): void;
  front(enableExternalBuffer?: boolean): { start: number; samples: Float32Array };
  reset(): void;
  flush(): void;
}

interface SherpaTtsConfig {
  model: {
    vits: { model: string; tokens: string; dataDir: string; noiseScale?: number; noiseScaleW?: number; lengthScale?: number };
    numThreads: number;
    provider: 'cpu';
    debug: boolean;
  };
  maxNumSentences: number;
}

export interface SherpaTts {
  readonly sampleRate: number;
  generateAsync(request: {
    text: string;
    sid: number;
    speed: number;
    enableExternalBuffer?: boolean;
    /** Called with each chunk as it is synthesised; returning 0 or false stops the synthesis. */
    onProgress?: (info: { samples: Float32Array; progress: number }) => number | boolean | void;
  }): Promise<{ samples: Float32Array; sampleRate: number }>;
}

interface SherpaModule {
  Vad: new (config: SherpaVadConfig, bufferSizeInSeconds: number) => SherpaVad;
  OfflineTts: { createAsync(config: SherpaTtsConfig): Promise<SherpaTts> };
}

let loaded: SherpaModule | undefined;

export function sherpa(): SherpaModule {
  loaded ??= require('sherpa-onnx-node') as SherpaModule;
  return loaded;
}
