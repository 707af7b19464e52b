/** Where an import stands after a chunk (what the leadImport workflow and its activity pass). */
export interface ChunkResult {
  done: boolean;
  status: string;
  rowsDone: number;
  rowsTotal: number;
}
