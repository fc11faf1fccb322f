import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, tokenRejected } from './errors';

/** Every error leaves as JSON: { error: "…" }, or { errors: { field: [...] } } for validation (422). */
export function registerHttpErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      // With an unknown token, "not found" may only mean "not yours": say the token is refused instead.
      const answer = error.status === 404 && request.unknownToken ? tokenRejected() : error;
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ error: 'Internal server error' });
    }
    const messages: Record<string, string> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: `Unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send JSON, a form or multipart/form-data`,
      FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty',
      FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
      FST_INVALID_MULTIPART_CONTENT_TYPE: 'This request must be multipart/form-data',
      FST_REQ_FILE_TOO_LARGE: 'The uploaded file is larger than the service accepts',
    };
    const message = messages[error.code] ?? (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
      ? `The body is not valid JSON: ${error.message}`
      : error.message);
    return reply.code(status).send({ error: message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}` });
  });
}
