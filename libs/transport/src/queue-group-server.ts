import { ServerNats } from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription, SubscriptionOptions } from 'nats';

type NatsServerOptions = ConstructorParameters<typeof ServerNats>[0];

/**
 * Nest's NATS server, able to leave its queue group cleanly: it keeps the subscriptions it makes
 * and counts the requests it took but has not answered yet, so `leave` can stop new requests
 * (drain: NATS sends nothing more, what was already delivered is still handled), wait for the
 * answers, and flush them before the connection closes. Nest's own `gracefulShutdown` drops the
 * messages already on their way and always waits its whole grace period.
 */
export class QueueGroupServer extends ServerNats {
  private readonly queueSubs: Subscription[] = [];
  /** requests handed to a handler and not answered yet */
  private readonly unanswered = new Set<object>();
  private client: NatsConnection | undefined;

  constructor(options: NatsServerOptions) {
    super(options);
  }

  get inFlight(): number {
    return this.unanswered.size;
  }

  override bindEvents(client: NatsConnection): void {
    this.client = client;
    // Nest's binding, through a client that keeps each subscription it makes.
    super.bindEvents({
      subscribe: (subject: string, opts: SubscriptionOptions): Subscription => {
        const sub = client.subscribe(subject, opts);
        this.queueSubs.push(sub);
        return sub;
      },
    });
  }

  override async handleMessage(channel: string, msg: Msg): Promise<unknown> {
    if (!msg.reply) return super.handleMessage(channel, msg);
    const token = {};
    this.unanswered.add(token);
    const respond = msg.respond.bind(msg);
    // The answer (or the error packet) leaves through respond: the request is done then.
    msg.respond = (...args: Parameters<Msg['respond']>): boolean => {
      this.unanswered.delete(token);
      return respond(...args);
    };
    try {
      return await super.handleMessage(channel, msg);
    } catch (e) {
      this.unanswered.delete(token);
      throw e;
    }
  }

  /**
   * Leaves the queue group: drains every subscription (new requests go to the other replicas;
   * those already delivered here are handled), waits until each taken request is answered, and
   * flushes the answers. Bounded by `graceMs`; resolves with the requests still unanswered then.
   */
  async leave(graceMs: number): Promise<number> {
    const deadline = Date.now() + graceMs;
    const within = <T>(p: Promise<T>): Promise<T | undefined> =>
      Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), Math.max(0, deadline - Date.now())).unref())]);
    await within(Promise.all(this.queueSubs.map((s) => s.drain().catch(() => undefined))));
    while (this.unanswered.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (this.client && !this.client.isClosed()) await within(this.client.flush().catch(() => undefined));
    return this.unanswered.size;
  }
}
