/** Ready-to-paste code shown in a tab of `SnippetTabs`. */
export interface Snippet {
  id: string;
  label: string;
  language: string;
  code: string;
}
