// Every tool of `phonewright mcp`, in the order tools/list gives them.
import { ACT_TOOLS } from './tools-act.js';
import { SEE_TOOLS } from './tools-see.js';
import { AUTHOR_TOOLS } from './tools-author.js';
import { RUN_TOOLS } from './tools-run.js';
import type { Tool } from './tool.js';

/** The tools: to see, to act, to author, run and mend. */
export const TOOLS: readonly Tool[] = [...SEE_TOOLS, ...ACT_TOOLS, ...AUTHOR_TOOLS, ...RUN_TOOLS];
