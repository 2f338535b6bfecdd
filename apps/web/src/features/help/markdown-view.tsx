// Renders the manual's Markdown safely: raw HTML is dropped, only http(s), mailto, tel and same-site links
// are kept, and same-site links stay inside the console. Pipe tables are read as tables.
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import { Typography } from 'antd';
import { isAllowedUrl } from '@genset/protocol';
import { remarkPipeTables } from './remark-pipe-tables.ts';
import './markdown-view.css';

const remarkPlugins = [remarkPipeTables];

export function safeUrl(url: string): string {
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  if (url.startsWith('#') || url.startsWith('?')) return url;
  return isAllowedUrl(url) ? url : '';
}

const components: Components = {
  a({ href, children }) {
    if (!href) return <span>{children}</span>;
    if (href.startsWith('/') || href.startsWith('?')) {
      const to = href.startsWith('?') ? `/help/info${href}` : href;
      return <Link to={to}>{children}</Link>;
    }
    if (href.startsWith('#')) return <a href={href}>{children}</a>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  img({ src, alt }) {
    return typeof src === 'string' && src ? <img src={src} alt={alt ?? ''} style={{ maxWidth: '100%' }} /> : null;
  },
};

export function MarkdownView({ markdown }: { markdown: string }) {
  return (
    <Typography>
      <div className="markdown-body">
        <Markdown skipHtml urlTransform={safeUrl} components={components} remarkPlugins={remarkPlugins}>
          {markdown}
        </Markdown>
      </div>
    </Typography>
  );
}
