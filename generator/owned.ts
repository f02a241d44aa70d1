/** Whether `path` is under one of an emitter's owned paths (directories end with `/`; anything else is one file). */
export const isOwned = (path: string, owns: readonly string[]): boolean => owns.some((o) => (o.endsWith('/') ? path.startsWith(o) : path === o));
