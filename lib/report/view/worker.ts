/**
 * Worker side of the viewer's pool (jobs.ts): reads logs, summarises and highlights Python files.
 * Never executes the code it reads. Protocol: lib/util/pool.ts.
 *
 * @module
 */
import { serveJobs } from "../../util/mod.ts";
import { runViewJob, type ViewJob } from "./jobs.ts";

serveJobs((job: ViewJob) => runViewJob(job));
