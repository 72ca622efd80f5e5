/** True when `pathname` is one of the section roots or below it ('/servers' matches '/servers/1'). */
export function isSectionActive(pathname: string, sections: readonly string[]): boolean {
  return sections.some((root) => pathname === root || pathname.startsWith(`${root}/`));
}
