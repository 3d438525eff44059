#!/usr/bin/env -S node --max-semi-space-size=2
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
