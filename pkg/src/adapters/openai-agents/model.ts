// A host's `Model`, seen: each request it is sent and the response it gives.
//
// The wrapper tells the context which request went out and what came back: the usage,
// for the calibration and the ledger, and the model's calls of the recall tool, so that
// each is answered by the conversation that made it. It may also replace the request
// (`boundedModel`: the input built by the conversation's manager). Everything else of the
// model is the host's own: a Proxy keeps its class, its other members and `instanceof`.
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';

export interface ModelWatch<T> {
  /** The request is going out: the request to send, and what the context knows it by. */
  send(request: ModelRequest): Promise<[ModelRequest, T | undefined]>;
  /** Its response came back, with its usage and output items. */
  answered(sent: T | undefined, response: Pick<ModelResponse, 'usage' | 'output'>): void;
}

export function watchedModel<T>(model: Model, watch: ModelWatch<T>): Model {
  const getResponse = async (request: ModelRequest): Promise<ModelResponse> => {
    const [sent, what] = await watch.send(request);
    const response = await model.getResponse(sent);
    watch.answered(what, response);
    return response;
  };
  async function* getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const [sent, what] = await watch.send(request);
    for await (const event of model.getStreamedResponse(sent)) {
      if (event.type === 'response_done') watch.answered(what, event.response as unknown as Pick<ModelResponse, 'usage' | 'output'>);
      yield event;
    }
  }
  return new Proxy(model, {
    get(target, key) {
      if (key === 'getResponse') return getResponse;
      if (key === 'getStreamedResponse') return getStreamedResponse;
      const value: unknown = Reflect.get(target, key, target);
      // The host's methods run on the model itself, where their private fields are.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
