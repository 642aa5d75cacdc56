import classes from './skip-link.module.css';

export const MAIN_CONTENT_ID = 'main-content';

/** "Skip to content": keyboard users reach the page without tabbing through the header and the navigation. */
export function SkipLink() {
  return (
    <a
      className={classes.skipLink}
      href={`#${MAIN_CONTENT_ID}`}
      // Focus moves without a change of address: the router would take the fragment for a navigation.
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
