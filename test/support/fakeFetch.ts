/** A stand-in for the network: answers from a function, records what was asked. Nothing connects. */
export function fakeFetch(answer: (url: string) => Response | Promise<Response>) {
  const asked: string[] = [];
  const f = (async (input: string | URL | Request) => {
    asked.push(String(input));
    return answer(String(input));
  }) as typeof fetch;
  return { f, asked };
}
