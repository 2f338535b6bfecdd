// The company's logo from the server, or the product mark when the company has none.
import { ThunderboltFilled } from '@ant-design/icons';
import { useCompanyLogo } from '../api/company.ts';

export function CompanyMark({ size = 40 }: { size?: number }) {
  const { data } = useCompanyLogo();
  if (data?.logo) return <img src={data.logo} alt="" width={size} height={size} style={{ objectFit: 'contain' }} />;
  return (
    <span
      aria-hidden
      style={{
        width: size,
        height: size,
        borderRadius: size / 4,
        background: '#0958d9',
        color: '#fff',
        display: 'inline-grid',
        placeItems: 'center',
        fontSize: size * 0.55,
      }}
    >
      <ThunderboltFilled />
    </span>
  );
}
