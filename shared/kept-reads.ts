/**
 * A reading of request header values that repeat from request to request (a browser's `User-Agent`, its
 * `Accept-Encoding`): each value up to `longest` characters is read once and its result kept, the first `kept` of
 * them; later values are read each time, so the kept ones stay bounded whatever clients send.
 */
export function keptReads<T>(read: (value: string) => T, kept: number, longest: number): (value: string) => T {
  const results = new Map<string, T>();
  return (value) => {
    if (results.has(value)) return results.get(value)!;
    const result = read(value);
    if (results.size < kept && value.length <= longest) results.set(value, result);
    return result;
  };
}
