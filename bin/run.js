#!/usr/bin/env -S node --max-semi-space-size=2 --v8-pool-size=1
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
