/** OpenAI's error responses, with the status, body shape and headers its SDK reads. */
export interface ErrorResponse {
  status: number;
  headers?: Record<string, string>;
  /** OpenAI's `{ error: {…} }` for the fake's own errors; anything for `http-error` faults. */
  body: unknown;
}

function errorResponse(status: number, message: string, type: string, code: string | null): ErrorResponse {
  return { status, body: { error: { message, type, param: null, code } } };
}

export function invalidApiKey(): ErrorResponse {
  return errorResponse(
    401,
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    'invalid_api_key',
  );
}

export function modelNotFound(model: string): ErrorResponse {
  return errorResponse(
    404,
    `The model \`${model}\` does not exist or you do not have access to it.`,
    'invalid_request_error',
    'model_not_found',
  );
}

/** What Ollama's OpenAI-compatible endpoint answers when the model has no tool calling. */
export function toolsUnsupported(model: string): ErrorResponse {
  return errorResponse(400, `registry.ollama.ai/library/${model}:latest does not support tools`, 'api_error', null);
}

export function rateLimited(retryAfterSeconds: number): ErrorResponse {
  return {
    ...errorResponse(
      429,
      `Rate limit reached for requests. Please try again in ${retryAfterSeconds}s.`,
      'requests',
      'rate_limit_exceeded',
    ),
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** OpenAI's 403: the key is valid but may not do this (an unsupported region, a model the project has no access to). */
export function forbidden(): ErrorResponse {
  return errorResponse(403, 'Project `proj_fake` does not have access to model `fake-model`', 'invalid_request_error', 'model_not_found');
}

/** Gemini's OpenAI-compatible endpoint: errors as a JSON array of Google API errors. */
export function geminiError(status: number, message: string, googleStatus = 'INVALID_ARGUMENT'): ErrorResponse {
  return { status, body: [{ error: { code: status, message, status: googleStatus } }] };
}

/** vLLM's and SGLang's error body: the error's fields at the top, the status as its code (vLLM's ErrorResponse). */
export function flatError(status: number, message: string, type = 'BadRequestError'): ErrorResponse {
  return { status, body: { object: 'error', message, type, param: null, code: status } };
}

/** A FastAPI-based server's error body: `detail` as text, or as the list of validation errors it answers a malformed request with. */
export function fastApiError(status: number, detail: string | { loc: string[]; msg: string; type: string }[]): ErrorResponse {
  return { status, body: { detail } };
}

/** A NestJS-based proxy's error body: the words in `message`, the status's name in `error`. */
export function nestError(status: number, message: string, name = 'Bad Request'): ErrorResponse {
  return { status, body: { statusCode: status, message, error: name } };
}

export function serverError(): ErrorResponse {
  return errorResponse(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
}

export function invalidUrl(method: string, path: string): ErrorResponse {
  return errorResponse(404, `Invalid URL (${method} ${path})`, 'invalid_request_error', null);
}

export function unparsableBody(): ErrorResponse {
  return errorResponse(
    400,
    'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly.)',
    'invalid_request_error',
    null,
  );
}

export function missingChatParameters(): ErrorResponse {
  return errorResponse(
    400,
    "A chat completion needs a string 'model' and an array 'messages' in its JSON body.",
    'invalid_request_error',
    null,
  );
}

/** The fake's own failures (script ran out, script broken) so an under-scripted test fails loudly. */
export function scriptFailure(message: string): ErrorResponse {
  return errorResponse(500, message, 'fake_llm_script_error', 'fake_llm_script_error');
}
