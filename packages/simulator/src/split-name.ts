/** `get_weather`, `getWeather`, `get-weather`, `files.read` → their lower-case words. */
export function splitName(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(word => word !== '');
}
