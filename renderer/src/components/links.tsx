import { Anchor, type AnchorProps, Button, type ButtonProps, NavLink, type NavLinkProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type AnchorElementProps = AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> };

/** Mantine's link looks with the router's typed `to`, `params` and `search`. */
export const AnchorLink = createLink((props: AnchorProps & AnchorElementProps) => <Anchor component="a" {...props} />);

export const NavLinkLink = createLink((props: NavLinkProps & AnchorElementProps) => (
  <NavLink component="a" {...props} />
));

export const ButtonLink = createLink((props: ButtonProps & AnchorElementProps) => <Button component="a" {...props} />);
