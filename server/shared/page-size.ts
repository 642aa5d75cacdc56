// Page sizes apart from the schemas that use them: the command-line tool reads them without loading zod.
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
