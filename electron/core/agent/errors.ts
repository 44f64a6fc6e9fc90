// What an API failure means to the user: a kind the UI can branch on, a message a person can act on (never
// a stack or a host path), whether Retry makes sense, and how long to wait when the API said so.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { z } from 'zod';
import type { errorKind } from '../../../shared/channels/chat.js';
import { diskMessage } from '../disk-errors.js';

export type ErrorKind = z.infer<typeof errorKind>;

export interface RunFailure {
  kind: ErrorKind;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
}

export const AUTH_MESSAGE =
  'The API refused the key: check your API key in Settings (or the ANTHROPIC_API_KEY environment variable).';

function retryAfter(error: APIError): number | undefined {
  const headers = error.headers;
  const ms = headers?.get?.('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const seconds = headers?.get?.('retry-after');
  if (seconds && Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  return undefined;
}

function withRetry(failure: RunFailure, ms: number | undefined): RunFailure {
  return ms === undefined ? failure : { ...failure, retryAfterMs: ms };
}

/** The API's own message, trimmed; it never carries host paths. */
function apiMessage(error: APIError): string {
  return (error.apiMessage ?? '').slice(0, 500);
}

export function classifyError(error: unknown): RunFailure {
  if (error instanceof APIUserAbortError) {
    return { kind: 'connection', message: 'The request was cancelled.', retryable: true };
  }
  if (error instanceof APIConnectionTimeoutError) {
    return {
      kind: 'connection',
      message: 'The API did not answer in time. Check your connection and retry.',
      retryable: true,
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      kind: 'connection',
      message: 'The connection to the API was lost. Check your network and retry.',
      retryable: true,
    };
  }
  if (error instanceof APIError) {
    const status = error.status as number | undefined;
    const type = error.type ?? typeOfBody(error);
    const detail = apiMessage(error);
    if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
      return { kind: 'auth', message: AUTH_MESSAGE, retryable: false };
    }
    if (status === 429 || type === 'rate_limit_error') {
      return withRetry(
        { kind: 'rate_limit', message: 'Rate limited by the API. Wait a moment and retry.', retryable: true },
        retryAfter(error),
      );
    }
    if (status === 529 || type === 'overloaded_error') {
      return withRetry(
        {
          kind: 'overloaded',
          message: 'The API is overloaded right now. Retry in a little while.',
          retryable: true,
        },
        retryAfter(error),
      );
    }
    if ((status !== undefined && status >= 500) || type === 'api_error' || type === 'timeout_error') {
      return withRetry(
        { kind: 'server', message: 'The API had a server error. Retry in a moment.', retryable: true },
        retryAfter(error),
      );
    }
    if (status === 400 || status === 413 || status === 404 || status === 422) {
      return {
        kind: 'invalid_request',
        message: detail ? `The API refused the request: ${detail}` : 'The API refused the request.',
        retryable: false,
      };
    }
    return {
      kind: 'server',
      message: detail || 'The API returned an error. Retry in a moment.',
      retryable: true,
    };
  }
  if (isNetworkError(error)) {
    return {
      kind: 'connection',
      message: 'The connection to the API was lost mid-answer. Check your network and retry.',
      retryable: true,
    };
  }
  return {
    kind: 'internal',
    message: diskMessage(error) ?? 'Something went wrong inside Mnemo. Retry, or see the log.',
    retryable: true,
  };
}

function typeOfBody(error: APIError): string | undefined {
  const body = error.error as { error?: { type?: unknown }; type?: unknown } | undefined;
  const type = body?.error?.type ?? body?.type;
  return typeof type === 'string' ? type : undefined;
}

const NETWORK_CODES = /^(UND_ERR|ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)/;

/** A socket that died while a stream was being read (undici: "terminated"), anywhere in the cause chain. */
function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (message === 'terminated' || message === 'fetch failed') return true;
    e = cause;
  }
  return false;
}
