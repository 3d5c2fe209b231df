/**
 * Worker side of the scoring pool: parses a run log against W_{t-1} (W0 on disk plus the agent's
 * earlier submissions) or summarises a Python file. Never executes submitted code. Protocol:
 * lib/util/pool.ts.
 *
 * @module
 */
import { serveJobs } from "../util/mod.ts";
import { type Job, runJob } from "./jobs.ts";

serveJobs((job: Job) => runJob(job));
