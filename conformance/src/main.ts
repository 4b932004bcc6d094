/** `npm run conformance -- <agent base URL> --token T`: the kit's command from a clone of this repository. */
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
