/** A stand-in for the network: answers from a function, records what was asked. Nothing connects. */
export function fakeFetch(answer: (url: string) => Response | Promise<Response>) {
  const asked: string[] = [];
  const f = (async (input: string | URL | Request) => {
    const url = input instanceof Request ? input.url : input.toString();
    asked.push(url);
    return answer(url);
  }) as typeof fetch;
  return { f, asked };
}
