/** Ponder requires an API entry; the bench reads Ponder's own /status and /ready only. */
import { Hono } from 'hono';

const app = new Hono();

export default app;
