import { type ProfileTarget, SERVICE_PROFILE_API_VERSION, SERVICE_PROFILE_KIND, profileName } from './serviceProfile.js';

/*
 * `linkerd profile --template`: a ServiceProfile to start from, as text because its comments are
 * the point. Its data is linkerd's template's (one route `/authors/{id}`, POST, 5xx failures);
 * the commented-out fields show the rest of the schema (all/any/not, isRetryable, timeout, the
 * retry budget). The comments are this CLI's own words.
 */

export function profileTemplate(t: ProfileTarget): string {
  return `### ServiceProfile for ${t.service}.${t.namespace} ###
apiVersion: ${SERVICE_PROFILE_API_VERSION}
kind: ${SERVICE_PROFILE_KIND}
metadata:
  name: ${profileName(t)}
  namespace: ${t.namespace}
spec:
  # Routes group requests: metrics (volume, latency, success rate) are kept per route.
  routes:
  - name: '/authors/{id}'

    # A request belongs to the first route whose condition it matches.
    condition:
      # A regular expression the whole request path must match.
      pathRegex: '/authors/\\d+'

      # The request method.
      method: POST

      # Fields set together must all match; the same as:
      # all:
      # - pathRegex: '/authors/\\d+'
      # - method: POST

      # 'all', 'any' and 'not' combine conditions:
      # any:
      # - all:
      #   - method: POST
      #   - pathRegex: '/authors/\\d+'
      # - all:
      #   - not:
      #       method: DELETE
      #   - pathRegex: /info.txt

    # Requests on a retryable route may be sent again by the proxy when they fail.
    # isRetryable: true

    # Response classes say which responses of this route count as failures.
    responseClasses:

    # A response belongs to the first class whose condition it matches.
    - condition:
        # A range of HTTP status codes.
        status:
          min: 500
          max: 599

        # With only min (or max), just that status code:
        # status:
        #   min: 404

        # 'all', 'any' and 'not' combine conditions here too:
        # all:
        # - status:
        #     min: 500
        #     max: 599
        # - not:
        #     status:
        #       min: 503

      # Whether these responses are failures (false: successes).
      isFailure: true

    # Requests on this route that take longer are cancelled (10s when unset).
    # timeout: 250ms

  # The retry budget bounds retries to this service relative to its request volume.
  # retryBudget:
  #   Retries may add at most this ratio of the original requests (0.2: 20%).
  #   retryRatio: 0.2

  #   Retries allowed per second on top of the ratio, for services with little traffic.
  #   minRetriesPerSecond: 10

  #   The window over which the ratio is computed.
  #   ttl: 10s
`;
}
