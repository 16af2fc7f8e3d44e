import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import { lastValueFrom, Observable, from } from 'rxjs';
import { handleTraced } from './nats-trace';

/**
 * Every NATS handler of a microservice runs inside a server span continuing the caller's trace,
 * with the caller's request id active (both from the message's headers): the handler's log lines,
 * database queries and JSON-RPC calls belong to the gateway request that asked. Installed for every
 * service by startMicroservice. Nest runs the handler inside the interceptor's async context
 * (its interceptor chain binds `next.handle()` to it). At LOG_LEVEL=debug each handled message
 * is a line (subject, duration, outcome) carrying the request id and trace id.
 */
@Injectable()
export class RpcTracingInterceptor implements NestInterceptor {
  private readonly log = new Logger('rpc');

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'rpc') return next.handle();
    const nats = ctx.switchToRpc().getContext<unknown>();
    if (!(nats instanceof NatsContext)) return next.handle();
    const subject = nats.getSubject();
    return from(
      handleTraced(subject, nats.getHeaders(), async () => {
        const started = performance.now();
        let outcome = 'error';
        try {
          const reply = await lastValueFrom(next.handle(), { defaultValue: undefined });
          outcome = 'ok';
          return reply;
        } finally {
          this.log.debug({ msg: 'rpc handled', subject, outcome, ms: Math.round((performance.now() - started) * 10) / 10 });
        }
      }),
    );
  }
}
