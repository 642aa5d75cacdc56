import { Anchor, type AnchorProps, Button, type ButtonProps, NavLink, type NavLinkProps } from '@mantine/core';
import { createLink, useRouter } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';

type AnchorElementProps = AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

/** Mantine's link looks with the router's typed `to`, `params` and `search`. */
export const AnchorLink = createLink((props: AnchorProps & AnchorElementProps) => <Anchor component="a" {...props} />);

export const NavLinkLink = createLink((props: NavLinkProps & AnchorElementProps) => (
  <NavLink component="a" {...props} />
));

export const ButtonLink = createLink((props: ButtonProps & AnchorElementProps) => <Button component="a" {...props} />);

/**
 * A link to a dashboard address computed as a string (the live tail's links to what an event names, made by a pure
 * function that tests read). A plain click navigates in the page; modified clicks (new tab) and copying the link work
 * as on any link.
 */
export function PathLink({ href, children, ...props }: AnchorProps & { href: string; children: ReactNode }) {
  const router = useRouter();
  return (
    <Anchor
      component="a"
      href={href}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        void router.navigate({ href });
      }}
      {...props}
    >
      {children}
    </Anchor>
  );
}
