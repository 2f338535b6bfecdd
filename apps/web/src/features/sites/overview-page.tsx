// /ems/index: the station now — its energy flow live (grid, PV, battery and load in kW and direction), the
// battery's SOC, today's charge, discharge and income, and the tactic sent against the one running.
import { Button, Card, Col, Row, Space, Statistic, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { ToneTag } from '../../components/tone-tag.tsx';
import { EnergyFlowDiagram } from './energy-flow-diagram.tsx';
import { EMS_PATHS, stationHref } from './links.ts';
import { currencyUnit, energyFigure, moneyFigure } from './site-format.ts';
import { SocGauge } from './soc-gauge.tsx';
import { StationPage } from './station-page.tsx';
import { TacticCard } from './tactic-card.tsx';
import type { Station } from './use-station.ts';
import './sites.css';

function Overview({ station }: { station: Station }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const overview = station.overview!;
  const currency = station.info!.site.currency;
  return (
    <Row gutter={[16, 16]} data-testid="ems-overview">
      <Col xs={24} xl={14}>
        <Card
          size="small"
          title={<h2 className="ems-page-title">{t('ems.flow.title')}</h2>}
          extra={
            <Space size={8} wrap>
              <ToneTag tone={station.online ? 'green' : 'grey'} data-testid="live-state">
                {station.online ? t('ems.live.on') : t('ems.live.off')}
              </ToneTag>
            </Space>
          }
        >
          <EnergyFlowDiagram overview={overview} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="overview-ts">
            {t('ems.overview.readAt', { time: formatDateTime(overview.ts, true) })}
          </Typography.Text>
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card size="small" title={t('ems.overview.today')}>
            <Row gutter={[16, 8]} align="middle">
              <Col xs={24} sm={10}>
                <SocGauge soc={overview.soc} />
              </Col>
              <Col xs={24} sm={14}>
                <Row gutter={[12, 8]} className="ems-figures" data-testid="today-figures">
                  <Col xs={8} sm={24}>
                    <Statistic
                      title={t('ems.overview.todayCharge')}
                      value={overview.todayChargeKwh}
                      formatter={energyFigure}
                      suffix={localUnit('kWh')}
                    />
                  </Col>
                  <Col xs={8} sm={24}>
                    <Statistic
                      title={t('ems.overview.todayDischarge')}
                      value={overview.todayDischargeKwh}
                      formatter={energyFigure}
                      suffix={localUnit('kWh')}
                    />
                  </Col>
                  <Col xs={8} sm={24}>
                    <Statistic
                      title={t('ems.overview.todayIncome')}
                      value={overview.todayIncome}
                      formatter={moneyFigure}
                      suffix={currencyUnit(currency)}
                    />
                  </Col>
                </Row>
              </Col>
            </Row>
          </Card>
          <TacticCard
            station={station}
            extra={
              <Button
                size="small"
                onClick={() => void navigate(stationHref(EMS_PATHS.strategy, station.token, params.get('mtoken')))}
              >
                {t('ems.menu.strategy')}
              </Button>
            }
          />
        </Space>
      </Col>
    </Row>
  );
}

export function OverviewPage() {
  return <StationPage>{(station) => <Overview station={station} />}</StationPage>;
}
