#!/usr/bin/env node
// The CLI entry point: the compiled CLI (npm install runs the build through "prepare").
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
